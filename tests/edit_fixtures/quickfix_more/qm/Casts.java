package qm;

class Casts {
    int half(double d) {
        int x = d * 0.5;
        return x;
    }

    String name(Object o) {
        String s = o;
        return s;
    }

    long round(float f) {
        return f;
    }
}
