package minimized;

import java.io.Serializable;

enum EnumImplementsInterface implements Serializable {
  A,
  B
}
