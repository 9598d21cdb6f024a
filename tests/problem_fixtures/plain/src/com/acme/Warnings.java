package com.acme;

import java.util.ArrayList;
import java.util.Date;
import java.util.List;

public class Warnings {
    public void all() {
        Date d = new Date(2020, 1, 1);
        Integer boxed = new Integer(5);
        List raw = new ArrayList();
        List<String> unchecked = new ArrayList();
    }
}
