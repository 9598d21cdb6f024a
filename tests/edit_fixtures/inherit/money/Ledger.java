package money;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

public class Ledger extends Base implements Iterable<Money> {
	private final List<Money> entries = new ArrayList<>();

	@Override
	protected int weight() {
		return entries.size();
	}

	@Override
	public Iterator<Money> iterator() {
		return entries.iterator();
	}
}
