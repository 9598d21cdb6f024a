package minimized;

import java.util.Collections;
import java.util.List;

@SuppressWarnings("ALL")
public class RawTypes {
  public static final List x = Collections.singletonList(42);
}
