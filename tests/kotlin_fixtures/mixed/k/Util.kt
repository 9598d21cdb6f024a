@file:JvmName("Utils")
package k

fun greet(name: String): String = "hi $name"

fun String.shout(times: Int = 1): String = this.repeat(times)

val version: Int = 3

const val LIMIT = 10

@JvmField val tags: List<String> = listOf()

var counter = 0
