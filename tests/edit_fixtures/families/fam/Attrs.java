package fam;

interface Attrs {
    long size();

    boolean isOther();
}
