package qf;

import java.nio.file.Files;
import java.nio.file.Path;

class Reader {
    String first(Path p) {
        return Files.readString(p);
    }

    int size(Path p) {
        String s = Files.readString(p);
        return s.length();
    }

    void touch(Path p) {
        Files.readString(p);
    }
}
