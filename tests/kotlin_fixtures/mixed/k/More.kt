package k

/** Shapes with a default method. */
interface Named {
    val name: String
    fun greeting(): String = "hello $name"
}

abstract class Animal(override val name: String) : Named {
    abstract fun sound(): String
    protected open fun legs(): Int = 4
    inner class Leg(val index: Int)
    class Kind(val label: String?)
}

sealed class Result {
    class Ok(val value: Any?) : Result()
    object Failure : Result()
}

class Box<T : Comparable<T>>(var item: T) {
    fun <R> map(f: (T) -> R): R = f(item)
    fun items(vararg more: T): List<T> = more.toList()
    fun matrix(): Array<IntArray> = arrayOf()
}

enum class Planet(val mass: Double) {
    EARTH(5.97),
    MARS(0.642);

    fun heavier(than: Planet): Boolean = mass > than.mass
}

object Config {
    const val NAME = "cfg"
    @JvmField var debug = false
    var level: Int = 1
    @JvmStatic var verbose: Boolean = false
}

val String.lastChar: Char get() = this[length - 1]

var Box<String>.label: String
    get() = item
    set(value) {
        item = value
    }

fun <T> List<T>.second(): T = this[1]

suspend fun fetch(url: String): String = url

fun nothing(): Nothing = throw IllegalStateException()

fun nullable(a: Long?, b: Char, c: Map<String, *>?): Unit {}

class Counter {
    var count: Int = 0
        private set
    private var hidden = 1
    internal fun bump() {
        count += hidden
    }
}
