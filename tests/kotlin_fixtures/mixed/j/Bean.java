package j;

public class Bean {
    private String name;
    public int count;

    public Bean() {}

    public Bean(String name) {
        this.name = name;
    }

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public boolean isActive() {
        return true;
    }

    public static Bean of(String n) {
        return new Bean(n);
    }

    public Bean child() {
        return this;
    }

    public void run(Runnable r) {
        r.run();
    }
}
