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
// the class files, into the `-d` directory its options name.
//
// Its arguments are the most bytes javac may read from one file (the server's
// `max_file_bytes`), then the workspace roots. javac reads files only through a file manager
// that refuses a source file over that size, one that is not a regular file (a FIFO, a
// device, a dangling or any other symbolic link), and one reached through a symbolic link
// below the source path entry it was found in (a committed `src/main/java/sec ->
// /elsewhere/sec`); class files under a class directory inside the roots (`target/classes`)
// are held to the same rules. To javac such a file does not exist.
//
// The helper never outlives the server: a daemon thread reads stdin and halts the JVM the
// moment it closes (the server exited, was killed, or dropped the helper), even while javac is
// busy with a request.

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.FileObject;
import javax.tools.ForwardingJavaFileManager;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import com.sun.source.util.JavacTask;

public class JavacHelper {
    /** The most bytes javac may read from one source file. */
    static long maxFileBytes = 8L * 1024 * 1024;

    /** The workspace roots, real paths: class directories inside them are held to the rules. */
    static final List<Path> roots = new ArrayList<>();

    public static void main(String[] args) throws Exception {
        if (args.length > 0) {
            maxFileBytes = Long.parseLong(args[0]);
        }
        for (int i = 1; i < args.length; i++) {
            try {
                roots.add(Paths.get(args[i]).toRealPath());
            } catch (IOException | RuntimeException e) {
                roots.add(Paths.get(args[i]).toAbsolutePath().normalize());
            }
        }
        BufferedReader stdin = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        BlockingQueue<String> in = new LinkedBlockingQueue<>();
        // The watcher: the server's end of the pipe closing is the server gone; javac may be in
        // the middle of a request that would run for minutes, so the JVM stops at once.
        Thread watcher = new Thread(() -> {
            try {
                String l;
                while ((l = stdin.readLine()) != null) {
                    in.put(l);
                }
            } catch (IOException | InterruptedException e) {
                // Same as end of stream.
            }
            Runtime.getRuntime().halt(0);
        }, "stdin-watcher");
        watcher.setDaemon(true);
        watcher.start();
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
        while (true) {
            String line = in.take();
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
                Runtime.getRuntime().halt(0);
            }
        }
    }

    static void compile(JavaCompiler compiler, List<String> options, List<String> files, boolean generate, PrintWriter out)
            throws Exception {
        DiagnosticCollector<JavaFileObject> diags = new DiagnosticCollector<>();
        // A fresh file manager per request: sources edited between requests are read anew.
        try (StandardJavaFileManager std = compiler.getStandardFileManager(diags, Locale.ROOT, StandardCharsets.UTF_8)) {
            Guarded fm = new Guarded(std);
            List<JavaFileObject> units = new ArrayList<>();
            for (JavaFileObject u : std.getJavaFileObjectsFromStrings(files)) {
                if (fm.readable(u)) {
                    units.add(u);
                }
            }
            StringWriter javacOut = new StringWriter();
            if (units.isEmpty()) {
                return;
            }
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

    /**
     * The only way javac reaches a file. A source file, from any location, is admitted when it
     * is a regular file (not followed through a link: a symbolic link, dangling or not, is
     * refused), of at most {@link #maxFileBytes}, and no component between the location's
     * entry and the file is a link (its real path is the entry's real path with the same
     * relative path). A class file (or any other) is held to the same rules when its entry lies
     * inside a workspace root (a `target/classes` of the project); library jars and the user's
     * own class directories are the build's and the user's, read as they are. Anything not
     * admitted is left out of every listing and lookup, so javac never opens it.
     */
    static final class Guarded extends ForwardingJavaFileManager<StandardJavaFileManager> {
        /** The real path of each location entry, as far as they were needed. */
        final Map<Path, Path> realEntries = new HashMap<>();

        Guarded(StandardJavaFileManager fm) {
            super(fm);
        }

        /** The file's own checks: a regular file, not a link, within the size cap. */
        boolean readable(FileObject f) {
            Path p = pathOf(f);
            return p == null || readable(p);
        }

        static boolean readable(Path p) {
            try {
                BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                return a.isRegularFile() && a.size() <= maxFileBytes;
            } catch (IOException | RuntimeException e) {
                return false;
            }
        }

        static boolean isSource(FileObject f) {
            return (f instanceof JavaFileObject && ((JavaFileObject) f).getKind() == JavaFileObject.Kind.SOURCE)
                    || f.getName().endsWith(".java");
        }

        /** Whether javac may read `f`, found in `location`. */
        boolean admitted(Location location, FileObject f) {
            Path p = pathOf(f);
            if (p == null) {
                // An entry of an archive (a jar, the JDK's image): the archive was admitted whole.
                return true;
            }
            boolean source = isSource(f);
            Path abs;
            Path entry = null;
            Path realEntry = null;
            try {
                abs = p.toAbsolutePath().normalize();
                Iterable<? extends Path> entries = fileManager.getLocationAsPaths(location);
                if (entries != null) {
                    for (Path e : entries) {
                        Path r = e.toAbsolutePath().normalize();
                        if (abs.startsWith(r) && (entry == null || r.getNameCount() > entry.getNameCount())) {
                            entry = r;
                        }
                    }
                }
                if (entry != null) {
                    realEntry = realEntries.get(entry);
                    if (realEntry == null) {
                        realEntry = entry.toRealPath();
                        realEntries.put(entry, realEntry);
                    }
                }
            } catch (IOException | RuntimeException e) {
                // No entry to judge by (a module location, say): a source is refused, a class
                // file is not one of a class directory inside the roots.
                return !source;
            }
            if (!source && (realEntry == null || !insideRoots(realEntry))) {
                return true;
            }
            if (!readable(p)) {
                return false;
            }
            try {
                // Not under any entry (javac built the path some other way): the file's real
                // path must be itself.
                Path expected = entry == null ? abs : realEntry.resolve(entry.relativize(abs));
                return p.toRealPath().equals(expected);
            } catch (IOException | RuntimeException e) {
                return false;
            }
        }

        static boolean insideRoots(Path real) {
            for (Path r : roots) {
                if (real.startsWith(r)) {
                    return true;
                }
            }
            return false;
        }

        Path pathOf(FileObject f) {
            try {
                Path p = fileManager.asPath(f);
                return p.getFileSystem() == FileSystems.getDefault() ? p : null;
            } catch (RuntimeException e) {
                return null;
            }
        }

        @Override
        public Iterable<JavaFileObject> list(Location location, String packageName, Set<JavaFileObject.Kind> kinds,
                boolean recurse) throws IOException {
            List<JavaFileObject> kept = new ArrayList<>();
            for (JavaFileObject f : super.list(location, packageName, kinds, recurse)) {
                if (admitted(location, f)) {
                    kept.add(f);
                }
            }
            return kept;
        }

        @Override
        public JavaFileObject getJavaFileForInput(Location location, String className, JavaFileObject.Kind kind)
                throws IOException {
            JavaFileObject f = super.getJavaFileForInput(location, className, kind);
            return f == null || admitted(location, f) ? f : null;
        }

        @Override
        public FileObject getFileForInput(Location location, String packageName, String relativeName)
                throws IOException {
            FileObject f = super.getFileForInput(location, packageName, relativeName);
            return f == null || admitted(location, f) ? f : null;
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
