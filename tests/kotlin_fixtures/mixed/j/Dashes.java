package j;

import k.Reader;
import k._DashedKt;

class Dashes {
    int run() {
        Reader.Opts o = Reader.Opts.create(3);
        int n = new Reader().read() + Reader.Opts.Companion.create(4).getSize();
        return _DashedKt.dashed() + o.doubled() + o.getSize() + n;
    }
}
