// The warm compiler behind get_problems' `javac` source. Shipped inside mcp-java-index
// (include_str!), compiled on first use into the cache directory, and kept running: each
// request is answered by javax.tools in this JVM, so a re-check does not pay JVM start-up.
//
// Protocol (UTF-8 lines on stdin/stdout):
//   request:  "compile" (or "generate") / "option ARG"* / "file PATH"* / "end"
//   answer:   "diag KIND\tPATH\tLINE\tCOL\tEND_LINE\tEND_COL\tCODE\tMESSAGE"* / "done MILLIS"
//             or "fail MESSAGE" / "done MILLIS" when javac could not run at all
// MESSAGE escapes backslash, tab and newline as \\, \t, \n. Lines and columns are 1-based
// (0 when javac gives no position). A "compile" request writes nothing to disk: the task stops
// after analysis (JavacTask.analyze). A "generate" request (run_tests' fast path) also writes
// the class files, into the `-d` directory its options name. The helper exits when its stdin
// closes, so it never outlives the server.

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import com.sun.source.util.JavacTask;

public class JavacHelper {
    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        PrintWriter out = new PrintWriter(new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8)));
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        if (compiler == null) {
            out.println("fatal no system Java compiler in " + System.getProperty("java.home") + " (a JRE, not a JDK?)");
            out.flush();
            return;
        }
        out.println("ready " + System.getProperty("java.version"));
        out.flush();
        List<String> options = new ArrayList<>();
        List<String> files = new ArrayList<>();
        boolean generate = false;
        String line;
        while ((line = in.readLine()) != null) {
            if (line.equals("compile") || line.equals("generate")) {
                generate = line.equals("generate");
                options.clear();
                files.clear();
            } else if (line.startsWith("option ")) {
                options.add(line.substring(7));
            } else if (line.startsWith("file ")) {
                files.add(line.substring(5));
            } else if (line.equals("end")) {
                long t = System.nanoTime();
                try {
                    compile(compiler, options, files, generate, out);
                } catch (Throwable e) {
                    StringWriter sw = new StringWriter();
                    e.printStackTrace(new PrintWriter(sw));
                    out.println("fail " + escape(e.toString() + "\n" + sw));
                }
                out.println("done " + (System.nanoTime() - t) / 1_000_000);
                out.flush();
            } else if (line.equals("quit")) {
                return;
            }
        }
    }

    static void compile(JavaCompiler compiler, List<String> options, List<String> files, boolean generate, PrintWriter out)
            throws Exception {
        DiagnosticCollector<JavaFileObject> diags = new DiagnosticCollector<>();
        // A fresh file manager per request: sources edited between requests are read anew.
        try (StandardJavaFileManager fm = compiler.getStandardFileManager(diags, Locale.ROOT, StandardCharsets.UTF_8)) {
            Iterable<? extends JavaFileObject> units = fm.getJavaFileObjectsFromStrings(files);
            StringWriter javacOut = new StringWriter();
            JavacTask task = (JavacTask) compiler.getTask(javacOut, fm, diags, options, null, units);
            if (generate) {
                task.generate();
            } else {
                task.analyze();
            }
            if (javacOut.getBuffer().length() > 0) {
                // Messages javac prints instead of reporting (e.g. bad options).
                out.println("diag OTHER\t\t0\t0\t0\t0\tcompiler.misc.output\t" + escape(javacOut.toString().trim()));
            }
        }
        Map<JavaFileObject, LineMap> maps = new HashMap<>();
        for (Diagnostic<? extends JavaFileObject> d : diags.getDiagnostics()) {
            JavaFileObject src = d.getSource();
            String path = src == null ? "" : src.toUri().getPath();
            // The range start is the diagnostic's line and column (as in LSP); both ends are
            // computed from character offsets, so tabs count one column, as in get_problems'
            // syntax source. Without offsets, javac's own line and column are kept.
            long line = Math.max(0, d.getLineNumber());
            long col = Math.max(0, d.getColumnNumber());
            long endLine = line;
            long endCol = col;
            long start = d.getStartPosition() != Diagnostic.NOPOS ? d.getStartPosition() : d.getPosition();
            if (src != null && start != Diagnostic.NOPOS) {
                LineMap map = maps.computeIfAbsent(src, LineMap::of);
                if (map != null) {
                    long[] a = map.at(start);
                    line = a[0];
                    col = a[1];
                    long end = d.getEndPosition() != Diagnostic.NOPOS ? d.getEndPosition() : start;
                    long[] b = map.at(Math.max(end, start));
                    endLine = b[0];
                    endCol = b[1];
                }
            }
            String code = d.getCode() == null ? "" : d.getCode();
            out.println("diag " + d.getKind() + "\t" + escape(path) + "\t" + line + "\t" + col + "\t" + endLine + "\t"
                    + endCol + "\t" + code + "\t" + escape(d.getMessage(Locale.ROOT)));
        }
    }

    /** Offsets to 1-based line and column, with javac's line terminators (CR, LF, CRLF). */
    static final class LineMap {
        final int[] starts;

        LineMap(int[] starts) {
            this.starts = starts;
        }

        static LineMap of(JavaFileObject f) {
            try {
                CharSequence s = f.getCharContent(true);
                List<Integer> st = new ArrayList<>();
                st.add(0);
                for (int i = 0; i < s.length(); i++) {
                    char c = s.charAt(i);
                    if (c == '\r' && i + 1 < s.length() && s.charAt(i + 1) == '\n') {
                        i++;
                        st.add(i + 1);
                    } else if (c == '\n' || c == '\r') {
                        st.add(i + 1);
                    }
                }
                int[] a = new int[st.size()];
                for (int i = 0; i < a.length; i++) a[i] = st.get(i);
                return new LineMap(a);
            } catch (Exception e) {
                return null;
            }
        }

        long[] at(long pos) {
            int lo = 0, hi = starts.length - 1;
            while (lo < hi) {
                int mid = (lo + hi + 1) >>> 1;
                if (starts[mid] <= pos) lo = mid; else hi = mid - 1;
            }
            return new long[] {lo + 1, pos - starts[lo] + 1};
        }
    }

    static String escape(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '\\': b.append("\\\\"); break;
                case '\t': b.append("\\t"); break;
                case '\n': b.append("\\n"); break;
                case '\r': break;
                default: b.append(c);
            }
        }
        return b.toString();
    }
}
