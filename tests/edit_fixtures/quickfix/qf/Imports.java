package qf;

class Imports {
    List<String> names() {
        return Collections.emptyList();
    }
}
