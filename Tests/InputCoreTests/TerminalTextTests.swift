import InputCore
import Testing

@Suite struct TerminalTextTests {
    @Test func controlsAndForeignFileNameBytesAreEscaped() {
        #expect(terminalSafe("a\u{1b}[2Jb") == #"a\u{1b}[2Jb"#)
        #expect(terminalSafe("tr\u{202e}jan") == #"tr\u{202e}jan"#)
        // A byte of a file name that is not UTF-8 (SystemSupport's `FileName`) as the byte it is.
        #expect(terminalSafe("caf\u{10FFE9}.evemu") == #"caf\xe9.evemu"#)
        #expect(terminalQuoted("caf\u{10FFE9}\"") == #""caf\xe9\"""#)
        #expect(terminalSafe("café ✓") == "café ✓")
        // Not controls: the rule that error excerpts and logs share leaves them alone.
        #expect(!isTerminalControl("\u{10FFE9}"))
        #expect(isTerminalControl("\u{9b}"))
    }
}
