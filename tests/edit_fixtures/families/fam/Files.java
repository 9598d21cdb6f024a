package fam;

class Files {
    static Attrs wrap(long n) {
        return new Attrs() {
            @Override
            public long size() {
                return n;
            }

            @Override
            public boolean isOther() {
                return size() < 0;
            }
        };
    }

    static Attrs local(long n) {
        class Sized implements Attrs {
            public long size() {
                return n;
            }

            public boolean isOther() {
                return false;
            }
        }
        return new Sized();
    }

    static Sink<String> printer(StringBuilder out) {
        return new Sink<String>() {
            @Override
            public void accept(String s) {
                out.append(s);
            }

            @Override
            public void accept(String s, int times) {
                for (int i = 0; i < times; i++) {
                    accept(s);
                }
            }
        };
    }

    static long total() {
        printer(new StringBuilder()).accept("x");
        return wrap(1).size() + local(2).size();
    }
}
