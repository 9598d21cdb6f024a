package k

/** In `_DashedKt`, as kotlinc names the facade of a file whose name starts with `-`. */
fun dashed(): Int = 1

class Reader {
    fun read(): Int = 1

    /** Its primary constructor on the line after its name (square/moshi's `JsonReader.Options`). */
    class Opts
        private constructor(val size: Int) {
        fun doubled(): Int = size * 2

        companion object {
            @JvmStatic fun create(size: Int): Opts = Opts(size)
        }
    }
}

/** `internal`: public to Java under its own name at the top level (a class's would be `name$module`). */
internal fun hidden(n: Int): Int = n

internal class Secret internal constructor(val n: Int)
