package k

/** A point. */
data class Point(val x: Int, var y: Int = 0) {
    var isVisible: Boolean = true
    lateinit var label: String

    @JvmOverloads
    fun move(dx: Int, dy: Int = 0, scale: Double = 1.0): Point = Point(x + dx, y + dy)

    fun names(): List<String> = listOf(label)

    companion object {
        const val ORIGIN_NAME = "origin"
        @JvmField val ZERO = Point(0)
        @JvmStatic fun of(x: Int): Point = Point(x)
        fun parse(s: String): Point = Point(s.length)
    }
}

object Registry {
    fun all(): Array<Point> = arrayOf()
    @JvmStatic fun size(): Int = 0
    @JvmName("lookUp") fun find(key: String?): Point? = null
}

interface Shape {
    val area: Double
    fun scale(by: Double): Shape
}

open class Base(val id: Long) {
    open fun describe(): String = "base"
    fun pairs(m: Map<String, List<Int>>): Int = m.size
}

enum class Color { RED, GREEN }
