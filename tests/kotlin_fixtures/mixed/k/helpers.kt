package k

fun twice(x: Int?): Int = 2 * (x ?: 0)

fun apply(f: (Int) -> String): String = f(1)

fun firstOf(items: Array<out Point>, vararg more: Int): Point? = items.firstOrNull()
