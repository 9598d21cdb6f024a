package k

import j.Bean
import j.Bean.of
import k.Overload.find as found

/** Overloads told apart by their arguments' types. */
object Overload {
    fun find(name: String): Bean = Bean(name)
    fun find(id: Int): Bean = Bean()
    fun pick(name: String): Bean = Bean(name)
    fun pick(id: Int): Point = Point(id)
}

/** Receivers typed only through Kotlin's inference of scope functions, lambdas and casts. */
class Infer {
    fun scopes(any: Any, beans: List<Bean>): String {
        val b = Bean().apply { name = "x"; child() }
        val a = b.let { it.isActive }
        b.also { x -> x.child() }
        val n = with(b) { name }
        val r = "s".run { b.child() }
        beans.filter { it.isActive }.first { it.isActive }.child()
        val p = Overload.pick("a").name + Overload.pick(1).x
        val u = listOf(1).first()
        Overload.find(u).name
        if (any is Bean) any.child()
        when (any) {
            is Point -> any.y
            else -> r.name
        }
        return n + a + p
    }
}

/** A Java static imported by name, and an object's function imported under an alias. */
fun imported(): Bean = of("v").also { found("w") }
