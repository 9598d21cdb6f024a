package capture;

/** A self-typed builder, as Lombok's @SuperBuilder writes one: each setter returns `B`. */
public class Base {
    int size;

    protected Base(BaseBuilder<?, ?> b) {
        this.size = b.size;
    }

    public static abstract class BaseBuilder<C extends Base, B extends BaseBuilder<C, B>> {
        int size;

        protected abstract B self();

        public abstract C build();

        public B size(int size) {
            this.size = size;
            return self();
        }
    }
}
