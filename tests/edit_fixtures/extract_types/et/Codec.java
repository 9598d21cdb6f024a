package et;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.lang.reflect.Type;
import java.util.List;
import java.util.Map;

public class Codec {
    private final Map<String, List<Token<?>>> seen = new java.util.HashMap<>();

    int sizeOf(String key) {
        return seen.get(key).size();
    }

    Token<?> tokenOf(Type typeOfT) {
        return Token.get(typeOfT);
    }

    <T> Adapter<T> adapter(Factory factory, Token<T> type) {
        return factory.create(this, type).getClass() == null ? null : factory.create(this, type);
    }

    String firstLine(Reader in) throws IOException {
        BufferedReader r = new BufferedReader(in);
        String line = r.readLine();
        r.close();
        return line;
    }
}
