package rm;

class Shape {
    int sides() {
        return 0;
    }
}

class Square extends Shape {
    @Override
    int sides() {
        return 4;
    }

    int twice() {
        return sides() * 2;
    }
}
