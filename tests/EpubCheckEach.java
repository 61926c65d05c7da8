import com.adobe.epubcheck.tool.EpubChecker;

/** EPUBCheck over each book named, one after another in one JVM, as `epubcheck BOOK` checks it alone. */
public class EpubCheckEach {
    public static void main(String[] books) {
        for (String book : books) {
            System.out.println("=== " + book);
            System.out.flush();
            System.err.println("=== " + book);
            System.err.flush();
            new EpubChecker().run(new String[] {book});
            System.out.flush();
            System.err.flush();
        }
    }
}
