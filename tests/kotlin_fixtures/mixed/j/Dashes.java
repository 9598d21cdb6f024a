package j;

import k.Reader;
import k.Secret;
import k._DashedKt;

class Dashes {
    int run() {
        Reader.Opts o = Reader.Opts.create(3);
        int n = new Reader().read() + Reader.Opts.Companion.create(4).getSize();
        int h = _DashedKt.hidden(1) + new Secret(2).getN();
        return _DashedKt.dashed() + o.doubled() + o.getSize() + n + h;
    }
}
