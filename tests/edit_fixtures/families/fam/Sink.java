package fam;

interface Sink<T> {
    void accept(T t);

    void accept(T t, int times);
}
