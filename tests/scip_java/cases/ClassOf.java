package minimized;

public class ClassOf {
  public static String app() {
    return ClassOf.class.getName();
  }
}
