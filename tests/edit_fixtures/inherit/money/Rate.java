package money;

public record Rate(double value) implements Comparable<Rate> { }
