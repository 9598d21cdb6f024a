package jv;

/** A native method and the program's entry point. */
public class Peer {
    native int peek(long address);

    public static void main(String[] args) {
        System.out.println("peer");
    }
}
