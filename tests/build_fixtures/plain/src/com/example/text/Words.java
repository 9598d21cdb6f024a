package com.example.text;

/** Word helpers for the plain-project fixture (no build file). */
public final class Words {
    private Words() {}

    public static int count(String text) {
        String t = text.trim();
        return t.isEmpty() ? 0 : t.split("\\s+").length;
    }

    public static String initials(String text) {
        StringBuilder b = new StringBuilder();
        for (String w : text.trim().split("\\s+")) {
            b.append(w.charAt(0));
        }
        return b.toString();
    }
}
