package qf;

class Task implements Runnable, Comparable<Task> {
    private final int rank = 1;
}
