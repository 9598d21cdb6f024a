/*
 * OutlineDump -- reference outline of Java sources produced by javac's own parser.
 *
 * Uses the Compiler Tree API in PARSE-ONLY mode (JavacTask.parse(): no enter, no
 * attribution, no annotation processing) and prints one line per declaration:
 *
 *   relpath TAB kind TAB name TAB startLine TAB endLine TAB javadocStartLine TAB javadocEndLine TAB params
 *
 * kind:   class interface enum record annotation method constructor field enumConstant recordComponent
 * name:   types   -> pkg.Outer.Inner            (no package -> Outer.Inner)
 *         members -> pkg.Outer.Inner#member     (constructors: pkg.Bar#Bar)
 * lines:  1-based; start = SourcePositions.getStartPosition (== TreeInfo.getStartPos),
 *         end = line of the last character (getEndPosition - 1). Fields declared together
 *         (int a, b;) all get the start of the group and the end of the whole declaration.
 * javadoc: lines of the '/' of '/**' and of the '/' of the closing '*' '/' of the doc comment
 *         javac attached to the declaration (DocCommentTable), '-' '-' if none.
 * params: methods/constructors: parameter types joined by ',' with all whitespace removed,
 *         varargs printed as '...'; everything else '-'. recordComponent: its type.
 * A file with a syntax error additionally gets one line: relpath TAB ERROR TAB message TAB line.
 * module-info.java / package-info.java produce no declaration lines.
 * A leading UTF-8 byte order mark is blanked to a space before parsing (javac 17 would report
 * "illegal character: '\ufeff'" and lose the package clause); offsets and lines are unchanged.
 * Output is globally sorted (Java String order). A summary goes to stderr.
 *
 * Usage: OutlineDump ROOT_DIR [FILE_LIST]
 *   FILE_LIST: text file with paths relative to ROOT_DIR, one per line. Without it, ROOT_DIR
 *   is walked recursively for *.java files.
 *   System properties: -Doutline.threads=N (default: available processors),
 *                      -Doutline.batch=N   (files per JavacTask, default 250).
 *
 * Compile (from /work/main):
 *   javac -d target/javac-dump \
 *     --add-exports jdk.compiler/com.sun.tools.javac.api=ALL-UNNAMED \
 *     --add-exports jdk.compiler/com.sun.tools.javac.code=ALL-UNNAMED \
 *     --add-exports jdk.compiler/com.sun.tools.javac.parser=ALL-UNNAMED \
 *     --add-exports jdk.compiler/com.sun.tools.javac.tree=ALL-UNNAMED \
 *     --add-exports jdk.compiler/com.sun.tools.javac.util=ALL-UNNAMED \
 *     tests/javac/OutlineDump.java
 *
 * Run (from /work/main):
 *   java -cp target/javac-dump \
 *     --add-exports jdk.compiler/com.sun.tools.javac.api=ALL-UNNAMED \
 *     --add-exports jdk.compiler/com.sun.tools.javac.code=ALL-UNNAMED \
 *     --add-exports jdk.compiler/com.sun.tools.javac.tree=ALL-UNNAMED \
 *     --add-exports jdk.compiler/com.sun.tools.javac.util=ALL-UNNAMED \
 *     --add-opens jdk.compiler/com.sun.tools.javac.parser=ALL-UNNAMED \
 *     OutlineDump /tmp/jdk-src > /tmp/javac-outline.tsv
 *
 * (--add-opens on com.sun.tools.javac.parser is needed because the doc comment's start offset
 * is read from the private field UnicodeReader$PositionTrackingReader.offset; the comment's
 * raw characters, unicode escapes untranslated, come from UnicodeReader.getRawCharacters(), so
 * the comment spans [offset, offset + raw.length) of the source buffer exactly.)
 */

import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.util.JavacTask;
import com.sun.source.util.SourcePositions;
import com.sun.source.util.Trees;
import com.sun.tools.javac.code.Flags;
import com.sun.tools.javac.parser.Tokens;
import com.sun.tools.javac.parser.UnicodeReader;
import com.sun.tools.javac.tree.DocCommentTable;
import com.sun.tools.javac.tree.JCTree;
import com.sun.tools.javac.tree.JCTree.JCClassDecl;
import com.sun.tools.javac.tree.JCTree.JCCompilationUnit;
import com.sun.tools.javac.tree.JCTree.JCMethodDecl;
import com.sun.tools.javac.tree.JCTree.JCVariableDecl;

import javax.tools.Diagnostic;
import javax.tools.DiagnosticListener;
import javax.tools.ForwardingJavaFileObject;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import java.io.BufferedWriter;
import java.io.File;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.lang.reflect.Field;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.stream.Stream;

public class OutlineDump {

    private static final List<String> OPTIONS = List.of(
            "-proc:none",
            "--release", "17",
            "-encoding", "UTF-8",
            "-implicit:none",
            "-nowarn",
            "-Xlint:none",
            "-Xmaxerrs", "1000000",
            "-Xmaxwarns", "0");

    private static final Field COMMENT_OFFSET;
    static {
        Field f;
        try {
            f = Class.forName("com.sun.tools.javac.parser.UnicodeReader$PositionTrackingReader")
                    .getDeclaredField("offset");
            f.setAccessible(true);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new ExceptionInInitializerError(
                    "cannot access UnicodeReader$PositionTrackingReader.offset; run with "
                    + "--add-opens jdk.compiler/com.sun.tools.javac.parser=ALL-UNNAMED: " + e);
        }
        COMMENT_OFFSET = f;
    }

    private static final JavaCompiler COMPILER = ToolProvider.getSystemJavaCompiler();

    private static final ThreadLocal<StandardJavaFileManager> FILE_MANAGER = ThreadLocal.withInitial(
            () -> COMPILER.getStandardFileManager(null, Locale.ROOT, StandardCharsets.UTF_8));

    private static final AtomicLong DECLS = new AtomicLong();
    private static final AtomicLong ERROR_FILES = new AtomicLong();

    public static void main(String[] args) throws Exception {
        if (args.length < 1 || args.length > 2) {
            System.err.println("usage: OutlineDump ROOT_DIR [FILE_LIST]");
            System.exit(2);
        }
        long t0 = System.nanoTime();
        Path root = Paths.get(args[0]).toAbsolutePath().normalize();
        List<String> rels = new ArrayList<>();
        if (args.length == 2) {
            for (String line : Files.readAllLines(Paths.get(args[1]), StandardCharsets.UTF_8)) {
                String s = line.strip();
                if (s.startsWith("\uFEFF")) s = s.substring(1);
                if (s.isEmpty()) continue;
                s = s.replace('\\', '/');
                while (s.startsWith("./")) s = s.substring(2);
                rels.add(s);
            }
        } else {
            try (Stream<Path> st = Files.walk(root)) {
                rels = st.filter(p -> p.getFileName() != null
                                && p.getFileName().toString().endsWith(".java")
                                && Files.isRegularFile(p))
                        .map(p -> root.relativize(p).toString().replace(File.separatorChar, '/'))
                        .collect(Collectors.toCollection(ArrayList::new));
            }
        }
        Collections.sort(rels);
        rels = rels.stream().distinct().collect(Collectors.toList());

        int threads = Integer.getInteger("outline.threads", Runtime.getRuntime().availableProcessors());
        int batchSize = Math.max(1, Integer.getInteger("outline.batch", 250));
        List<List<String>> batches = new ArrayList<>();
        for (int i = 0; i < rels.size(); i += batchSize) {
            batches.add(rels.subList(i, Math.min(rels.size(), i + batchSize)));
        }

        Writer out = new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), 1 << 16);
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, threads), r -> {
            Thread t = new Thread(r, "outline-worker");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<List<String>>> futures = new ArrayList<>();
            for (List<String> batch : batches) {
                futures.add(pool.submit(() -> processBatch(root, batch)));
            }
            for (Future<List<String>> f : futures) {
                for (String line : f.get()) {
                    out.write(line);
                    out.write('\n');
                }
            }
        } finally {
            out.flush();
            pool.shutdownNow();
        }
        long ms = (System.nanoTime() - t0) / 1_000_000;
        System.err.println("OutlineDump: files=" + rels.size() + " declarations=" + DECLS.get()
                + " errors=" + ERROR_FILES.get() + " elapsed_ms=" + ms);
    }

    /** Parses one batch in one JavacTask; returns the lines of all its files, sorted. */
    private static List<String> processBatch(Path root, List<String> rels) {
        try {
            return parseFiles(root, rels);
        } catch (Throwable t) {
            if (rels.size() == 1) {
                List<String> lines = new ArrayList<>();
                lines.add(rels.get(0) + "\tERROR\t" + clean("javac crashed: " + t) + "\t-");
                ERROR_FILES.incrementAndGet();
                return lines;
            }
            // retry file by file so that one bad file cannot take the whole batch with it
            List<String> lines = new ArrayList<>();
            for (String rel : rels) {
                lines.addAll(processBatch(root, List.of(rel)));
            }
            return lines;
        }
    }

    private static List<String> parseFiles(Path root, List<String> rels) throws IOException {
        StandardJavaFileManager fm = FILE_MANAGER.get();
        Map<URI, String> relOf = new HashMap<>();
        Map<String, List<String>> linesOf = new LinkedHashMap<>();
        Map<String, String> firstError = new HashMap<>();
        List<File> files = new ArrayList<>();
        List<String> fileRels = new ArrayList<>();
        for (String rel : rels) {
            File f = root.resolve(rel).toFile();
            linesOf.put(rel, new ArrayList<>());
            if (!f.isFile()) {
                firstError.put(rel, rel + "\tERROR\t" + clean("file not found: " + f) + "\t-");
                continue;
            }
            files.add(f);
            fileRels.add(rel);
        }
        List<JavaFileObject> fileObjects = new ArrayList<>();
        int idx = 0;
        for (JavaFileObject fo : fm.getJavaFileObjectsFromFiles(files)) {
            fileObjects.add(startsWithBom(files.get(idx++)) ? new BomBlanker(fo) : fo);
        }
        for (int i = 0; i < fileObjects.size(); i++) {
            relOf.put(fileObjects.get(i).toUri().normalize(), fileRels.get(i));
        }
        List<String> orphanDiags = new ArrayList<>();
        DiagnosticListener<JavaFileObject> listener = d -> {
            if (d.getKind() != Diagnostic.Kind.ERROR) return;
            String rel = null;
            if (d.getSource() != null) rel = relOf.get(d.getSource().toUri().normalize());
            if (rel == null) {
                synchronized (orphanDiags) {
                    orphanDiags.add(d.toString());
                }
                return;
            }
            if (!firstError.containsKey(rel)) {
                long line = d.getLineNumber();
                firstError.put(rel, rel + "\tERROR\t" + clean(d.getMessage(Locale.ROOT)) + "\t"
                        + (line == Diagnostic.NOPOS ? "-" : Long.toString(line)));
            }
        };
        if (!fileObjects.isEmpty()) {
            JavacTask task = (JavacTask) COMPILER.getTask(null, fm, listener, OPTIONS, null, fileObjects);
            Iterable<? extends CompilationUnitTree> units = task.parse();
            SourcePositions sp = Trees.instance(task).getSourcePositions();
            for (CompilationUnitTree u : units) {
                JCCompilationUnit cu = (JCCompilationUnit) u;
                String rel = relOf.get(cu.getSourceFile().toUri().normalize());
                if (rel == null) {
                    throw new IllegalStateException("unknown compilation unit " + cu.getSourceFile());
                }
                String simple = rel.substring(rel.lastIndexOf('/') + 1);
                if (simple.equals("module-info.java") || simple.equals("package-info.java")) continue;
                new Walker(rel, cu, sp, linesOf.get(rel)).walkUnit();
            }
        }
        if (!orphanDiags.isEmpty()) {
            synchronized (System.err) {
                for (String s : orphanDiags) System.err.println("OutlineDump: javac: " + s);
            }
        }
        List<String> result = new ArrayList<>();
        for (Map.Entry<String, List<String>> e : linesOf.entrySet()) {
            List<String> lines = e.getValue();
            DECLS.addAndGet(lines.size());
            String err = firstError.get(e.getKey());
            if (err != null) {
                lines.add(err);
                ERROR_FILES.incrementAndGet();
            }
            Collections.sort(lines);
            result.addAll(lines);
        }
        return result;
    }

    /** True if the file starts with the UTF-8 byte order mark EF BB BF. */
    private static boolean startsWithBom(File f) throws IOException {
        try (java.io.InputStream in = new java.io.FileInputStream(f)) {
            byte[] b = in.readNBytes(3);
            return b.length == 3 && (b[0] & 0xFF) == 0xEF && (b[1] & 0xFF) == 0xBB && (b[2] & 0xFF) == 0xBF;
        }
    }

    /**
     * javac 17 does not skip a leading byte order mark: it reports "illegal character: '\ufeff'"
     * and drops the package clause. The BOM is replaced by a space, which keeps every character
     * offset (and therefore every line number) identical to the original file.
     */
    private static final class BomBlanker extends ForwardingJavaFileObject<JavaFileObject> {
        BomBlanker(JavaFileObject fo) {
            super(fo);
        }

        @Override
        public CharSequence getCharContent(boolean ignoreEncodingErrors) throws IOException {
            CharSequence cs = super.getCharContent(ignoreEncodingErrors);
            if (cs.length() > 0 && cs.charAt(0) == '\uFEFF') {
                StringBuilder sb = new StringBuilder(cs);
                sb.setCharAt(0, ' ');
                return sb;
            }
            return cs;
        }
    }

    private static String clean(String s) {
        if (s == null) return "";
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            sb.append(c == '\t' || c == '\n' || c == '\r' ? ' ' : c);
        }
        return sb.toString().strip();
    }

    private static String noSpace(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!Character.isWhitespace(c)) sb.append(c);
        }
        return sb.toString();
    }

    private static final class Walker {
        final String rel;
        final JCCompilationUnit cu;
        final SourcePositions sp;
        final List<String> out;
        final DocCommentTable docs;

        Walker(String rel, JCCompilationUnit cu, SourcePositions sp, List<String> out) {
            this.rel = rel;
            this.cu = cu;
            this.sp = sp;
            this.out = out;
            this.docs = cu.docComments;
        }

        void walkUnit() {
            String pkg = cu.getPackageName() == null ? "" : noSpace(cu.getPackageName().toString());
            String prefix = pkg.isEmpty() ? "" : pkg + ".";
            for (JCTree t : cu.defs) {
                if (t instanceof JCClassDecl) {
                    JCClassDecl cd = (JCClassDecl) t;
                    walkType(cd, prefix + cd.name);
                }
            }
        }

        void walkType(JCClassDecl cd, String qname) {
            String kind;
            switch (cd.getKind()) {
                case INTERFACE: kind = "interface"; break;
                case ENUM: kind = "enum"; break;
                case RECORD: kind = "record"; break;
                case ANNOTATION_TYPE: kind = "annotation"; break;
                default: kind = "class"; break;
            }
            long start = sp.getStartPosition(cu, cd);
            if (start >= 0) {
                emit(kind, qname, start, sp.getEndPosition(cu, cd), doc(cd), "-");
            }
            List<JCTree> defs = cd.defs;
            int n = defs.size();
            for (int i = 0; i < n; i++) {
                JCTree t = defs.get(i);
                if (t instanceof JCClassDecl) {
                    JCClassDecl inner = (JCClassDecl) t;
                    walkType(inner, qname + "." + inner.name);
                } else if (t instanceof JCMethodDecl) {
                    JCMethodDecl m = (JCMethodDecl) t;
                    long s = sp.getStartPosition(cu, m);
                    if (s < 0) continue; // compiler-generated, no source position
                    boolean ctor = m.name.contentEquals("<init>");
                    String name = ctor ? cd.name.toString() : m.name.toString();
                    StringBuilder params = new StringBuilder();
                    for (JCVariableDecl p : m.params) {
                        if (params.length() > 0) params.append(',');
                        params.append(typeString(p));
                    }
                    emit(ctor ? "constructor" : "method", qname + "#" + name, s,
                            sp.getEndPosition(cu, m), doc(m), params.toString());
                } else if (t instanceof JCVariableDecl) {
                    JCVariableDecl v = (JCVariableDecl) t;
                    long flags = v.mods.flags;
                    if ((flags & Flags.RECORD) != 0) {
                        out.add(rel + "\trecordComponent\t" + qname + "#" + v.name + "\t-\t-\t-\t-\t"
                                + typeString(v));
                        continue;
                    }
                    long s = sp.getStartPosition(cu, v);
                    if (s < 0) continue;
                    if ((flags & Flags.ENUM) != 0) {
                        emit("enumConstant", qname + "#" + v.name, s, sp.getEndPosition(cu, v), doc(v), "-");
                        continue;
                    }
                    // group of fields declared together: same start position
                    int j = i;
                    while (j + 1 < n && defs.get(j + 1) instanceof JCVariableDecl) {
                        JCVariableDecl w = (JCVariableDecl) defs.get(j + 1);
                        if ((w.mods.flags & (Flags.RECORD | Flags.ENUM)) != 0) break;
                        if (sp.getStartPosition(cu, w) != s) break;
                        j++;
                    }
                    long end = sp.getEndPosition(cu, defs.get(j));
                    Tokens.Comment dc = doc(v);
                    for (int k = i; k <= j; k++) {
                        JCVariableDecl w = (JCVariableDecl) defs.get(k);
                        emit("field", qname + "#" + w.name, s, end, dc, "-");
                    }
                    i = j;
                }
                // blocks (initializers), stray ';' and erroneous trees are skipped
            }
        }

        Tokens.Comment doc(JCTree t) {
            if (docs == null) return null;
            Tokens.Comment c = docs.getComment(t);
            if (c == null || c.getStyle() != Tokens.Comment.CommentStyle.JAVADOC) return null;
            return c;
        }

        String typeString(JCVariableDecl p) {
            String s = p.vartype == null ? "" : noSpace(p.vartype.toString());
            if ((p.mods.flags & Flags.VARARGS) != 0 && s.endsWith("[]")) {
                s = s.substring(0, s.length() - 2) + "...";
            }
            return s;
        }

        String line(long pos) {
            if (pos < 0) return "-";
            return Long.toString(cu.getLineMap().getLineNumber(pos));
        }

        void emit(String kind, String name, long start, long end, Tokens.Comment dc, String params) {
            String js = "-", je = "-";
            if (dc != null) {
                try {
                    int off = COMMENT_OFFSET.getInt(dc);
                    int len = ((UnicodeReader) dc).getRawCharacters().length;
                    js = line(off);
                    je = line(off + len - 1);
                } catch (IllegalAccessException | ClassCastException e) {
                    throw new IllegalStateException("cannot get doc comment position", e);
                }
            }
            out.add(rel + "\t" + kind + "\t" + name + "\t" + line(start) + "\t"
                    + (end < 0 ? "-" : line(end - 1)) + "\t" + js + "\t" + je + "\t" + params);
        }
    }
}
