package minimized;

@lombok.Builder
class Hello {
  private String message;
}
