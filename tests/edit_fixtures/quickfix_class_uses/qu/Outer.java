package qu;

public class Outer {
    int size;
}
