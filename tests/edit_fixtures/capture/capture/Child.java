package capture;

public class Child extends Base {
    long weight;

    protected Child(ChildBuilder<?, ?> b) {
        super(b);
        this.weight = b.weight;
    }

    public static ChildBuilder<?, ?> builder() {
        return new ChildBuilderImpl();
    }

    public static abstract class ChildBuilder<C extends Child, B extends ChildBuilder<C, B>> extends Base.BaseBuilder<C, B> {
        long weight;

        public B weight(long weight) {
            this.weight = weight;
            return self();
        }
    }

    private static final class ChildBuilderImpl extends ChildBuilder<Child, ChildBuilderImpl> {
        @Override
        protected ChildBuilderImpl self() {
            return this;
        }

        @Override
        public Child build() {
            return new Child(this);
        }
    }
}
