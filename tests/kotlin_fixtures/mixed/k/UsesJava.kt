package k

import j.Bean

class UsesJava(private val bean: Bean) {
    fun all(other: Bean): String {
        val b = Bean("x")
        b.name = "y"
        val n = b.name
        val a = other.isActive
        other.count = 2
        val c = Bean.of("z").child().name
        bean.run { println() }
        this.bean.setName("w")
        val unknown = listOf(b).first()
        unknown.getName()
        val p = Point(1)
        p.y = p.x + Point.ZERO.y
        return n + a + c + other.name + Bean().count + "hi".shout()
    }
}
