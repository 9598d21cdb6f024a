package minimized;

public abstract class AbstractClasses {
  public String defaultImplementation() {
    return "";
  }

  public abstract String abstractImplementation();
}
