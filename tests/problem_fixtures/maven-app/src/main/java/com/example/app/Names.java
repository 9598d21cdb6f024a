package com.example.app;

import org.apache.commons.lang3.StringUtils;

/** Uses commons-lang3 from the build's classpath. */
public class Names {
    public static String shout(String name) {
        return StringUtils.upperCase(StringUtils.trimToEmpty(name));
    }
}
