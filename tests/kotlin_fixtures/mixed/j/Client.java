package j;

import java.util.List;
import java.util.Map;

import k.Base;
import k.Color;
import k.HelpersKt;
import k.Point;
import k.Registry;
import k.Shape;
import k.Utils;

public class Client {
    String run(Point p, Shape s, Map<String, List<Integer>> m) {
        String a = Utils.greet("x");
        String b = Utils.shout("y", 2);
        int v = Utils.getVersion();
        int lim = Utils.LIMIT;
        List<String> t = Utils.tags;
        Utils.setCounter(Utils.getCounter() + 1);
        int tw = HelpersKt.twice(1);
        String ap = HelpersKt.apply(i -> "n" + i);
        Point f = HelpersKt.firstOf(new Point[0], 1, 2);
        int x = p.getX();
        p.setY(3);
        boolean vis = p.isVisible();
        p.setVisible(false);
        p.setLabel("l");
        String l = p.getLabel() + p.label;
        Point m1 = p.move(1);
        Point m2 = p.move(1, 2);
        Point m3 = p.move(1, 2, 0.5);
        List<String> n = p.names();
        String o = Point.ORIGIN_NAME;
        Point z = Point.ZERO;
        Point q = Point.of(1);
        Point r = Point.Companion.parse("a");
        Point q2 = Point.Companion.of(2);
        Point[] all = Registry.INSTANCE.all();
        int sz = Registry.size();
        Point found = Registry.INSTANCE.lookUp(null);
        double ar = s.getArea();
        Shape s2 = s.scale(2.0);
        Point np = new Point(1, 2);
        Base base = new Base(5L);
        long id = base.getId();
        String d = base.describe() + base.pairs(m);
        Color c = Color.RED;
        Color[] cs = Color.values();
        return a + b + v + lim + t + tw + ap + f + x + vis + l + m1 + m2 + m3 + n + o + z + q + r + q2 + all + sz
            + found + ar + s2 + np + id + d + c + cs;
    }
}

class Sub extends Base {
    Sub() {
        super(1L);
    }

    @Override
    public String describe() {
        return "sub" + getId();
    }
}

class Square implements Shape {
    @Override
    public double getArea() {
        return 1;
    }

    @Override
    public Shape scale(double by) {
        return this;
    }
}
