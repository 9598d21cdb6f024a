package mm.a;

class Other {
    int use() {
        return Util.helper() + Util.LIMIT;
    }
}
