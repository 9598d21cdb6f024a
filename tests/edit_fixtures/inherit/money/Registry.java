package money;

import java.util.HashMap;

/** Entry and Kind are member types it inherits: organize_imports adds no import for them. */
public class Registry extends HashMap<String, Integer> implements Ledgered {
    private final ArrayList<Entry<String, Integer>> log = new ArrayList<>();

    @Override
    public Kind kind() {
        return Kind.CASH;
    }

    public Entry<String, Integer> first() {
        return entrySet().iterator().next();
    }
}
