package rm;

import java.io.IOException;

final class Store {
    private Store() {}

    static String read(String name) throws IOException {
        if (name.isEmpty()) {
            throw new IOException("no name");
        }
        return name + ".txt";
    }
}
