package com.example.outline.tabs;

import java.util.List;

/**
	 * Tab-indented class; \u0041 in a comment is just text.
	 */
class TabIndented {

	/**
	 *	A field with an escaped name: \u0061bc is abc.
	 */
	int \u0061bc;

	/**	Tab after the javadoc opener. */
	static final String NAME = "tab\tseparated\u0041";

	// line comment with an escape \u0041 and a tab:	done
	/** Method whose name uses unicode escapes: \u0067et = get. */
	int \u0067etAbc() {
		return abc;
	}

	/**
	 * Mixed tabs and spaces.
	 */
	    void mixed(List<String> xs) {
		for (String x : xs) {
			System.out.println(x);
		}
	    }

	/** Escaped braces are real braces: \u007b and \u007d in code. */
	void escapedBraces() \u007b
		abc++;
	\u007d

	/** A type name with an escape. */
	static class N\u0065sted {
		/** Escaped identifier start. */
		void \u0072un() {
		}
	}

	/** Multiple u's in the escape are legal: \uuu0041. */
	char letter = '\uuu0041';

	/** Last. */
	void last() {
	}
}
