package jv;

/** A bean only Spring's XML names: created and initialized by reflection. */
public class Wired {
    public void init() {}
}
