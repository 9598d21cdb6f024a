package et;

import java.lang.reflect.Type;

public interface Factory {
    <T> Adapter<T> create(Codec codec, Token<T> type);
}
