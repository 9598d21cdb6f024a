package org.junit.jupiter.params.provider;

import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;

/** JUnit 5's annotation, as far as the fixture needs it. */
@Retention(RetentionPolicy.RUNTIME)
public @interface MethodSource {
    String[] value() default {};
}
