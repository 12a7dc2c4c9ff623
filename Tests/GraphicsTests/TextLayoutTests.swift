import CLazyPangoCairo
import Glibc
import Testing

@testable import Graphics

@Suite struct TextLayoutTests {
    static let samples: [(name: String, text: String)] = [
        ("Latin", "Hello, world! Ça va?"),
        ("Chinese", "你好，世界"),
        ("Arabic", "مرحبا بالعالم"),
    ]

    /// Draws `layout` at (0, 0) into a bitmap that fits it.
    static func render(_ layout: TextLayout, width: Int? = nil) -> Bitmap {
        let bitmap = Bitmap(
            width: width ?? Int(layout.size.width.rounded(.up)) + 4,
            height: Int(layout.size.height.rounded(.up)) + 4)
        DrawingContext(bitmap: bitmap).draw(layout, at: Point(x: 0, y: 0))
        return bitmap
    }

    @Test(arguments: samples)
    func everyScriptFindsAFontAndDraws(name: String, text: String) {
        let layout = TextLayout(text: text, font: .system(size: 24), color: .black)
        #expect(layout.unknownGlyphCount == 0, "\(name): characters without a font")
        #expect(layout.size.width > 0 && layout.size.height > 0)
        #expect(layout.lineCount == 1)
        #expect(layout.baseline > 0 && layout.baseline < layout.size.height)
        let bitmap = Self.render(layout)
        #expect(bitmap.inkPixelCount > 50, "\(name): too few pixels drawn")
    }

    /// The context's font options win over fontconfig's: greyscale antialiasing, so white text has equal
    /// colour channels in every pixel (subpixel antialiasing would colour the edges).
    @Test func antialiasingIsGreyscale() {
        let bitmap = Self.render(TextLayout(text: "Kiosk 你好", font: .system(size: 17), color: .white))
        let edges = bitmap.allPixels.filter { $0 >> 24 != 0 && $0 >> 24 != 0xFF }
        #expect(!edges.isEmpty)
        #expect(edges.allSatisfy { p in p & 0xFF == p >> 24 && (p >> 8) & 0xFF == p >> 24 && (p >> 16) & 0xFF == p >> 24 })
    }

    /// Metrics are hinted: advances and line heights are whole pixels.
    @Test func metricsAreWholePixels() {
        let layout = TextLayout(text: "Hello, world", font: .system(size: 15.5))
        #expect(layout.size.width == layout.size.width.rounded())
        #expect(layout.size.height == layout.size.height.rounded())
    }

    @Test func sizeGrowsWithFontSize() {
        let small = TextLayout(text: "Kiosk", font: .system(size: 12))
        let large = TextLayout(text: "Kiosk", font: .boldSystemFont(ofSize: 36))
        #expect(large.size.width > 2.5 * small.size.width)
        #expect(large.size.height > 2.5 * small.size.height)
    }

    @Test func missingGlyphsAreCounted() {
        // A private-use character no installed font covers.
        let layout = TextLayout(text: "a\u{F8FF}\u{F8FE}", font: .system(size: 16))
        #expect(layout.unknownGlyphCount == 2)
    }

    static let longText = "The quick brown fox jumps over the lazy dog while the kiosk waits for a touch."

    @Test func wrappingAtAWidthGivesMoreLines() {
        let unwrapped = TextLayout(text: Self.longText, font: .system(size: 16))
        let wrapped = TextLayout(text: Self.longText, font: .system(size: 16), width: 150)
        #expect(unwrapped.lineCount == 1)
        #expect(wrapped.lineCount > 2)
        #expect(wrapped.size.width <= 150)
        #expect(wrapped.size.height > 2 * unwrapped.size.height)
        let chinese = TextLayout(text: String(repeating: "你好，世界", count: 6), font: .system(size: 16), width: 100)
        #expect(chinese.lineCount > 2)
        #expect(chinese.unknownGlyphCount == 0)
    }

    @Test func newlinesBreakWithoutWidth() {
        #expect(TextLayout(text: "one\ntwo\nthree", font: .system(size: 14)).lineCount == 3)
    }

    @Test(arguments: [LineBreakMode.wordWrap, .charWrap, .truncatingTail, .clipping])
    func maxLinesLimitsLinesAndHeight(mode: LineBreakMode) {
        let all = TextLayout(text: Self.longText, font: .system(size: 16), lineBreakMode: mode, width: 150)
        let two = TextLayout(text: Self.longText, font: .system(size: 16), lineBreakMode: mode, width: 150, maxLines: 2)
        #expect(all.lineCount > 2)
        #expect(two.lineCount == 2)
        #expect(two.size.height < all.size.height)
        #expect(abs(two.size.height - 2 * all.size.height / Double(all.lineCount)) < 2)
        // Nothing is drawn below the second line.
        let bitmap = Self.render(two, width: 160)
        let ink = bitmap.inkBounds!
        #expect(Double(ink.maxY) < two.size.height + 1)
    }

    @Test func truncatingTailEndsInAnEllipsis() {
        let one = TextLayout(
            text: Self.longText, font: .system(size: 16), lineBreakMode: .truncatingTail,
            width: 150, maxLines: 1)
        #expect(one.lineCount == 1)
        #expect(one.size.width <= 150)
        #expect(one.unknownGlyphCount == 0)
    }

    /// The line limit holds for the text as a whole: a title and a description over two lines ends the
    /// second in "…" (pango's per-paragraph limit left it without one).
    @Test func truncationCountsLinesAcrossParagraphs() {
        let cut = TextLayout(
            text: "Title\n" + Self.longText, font: .system(size: 16), lineBreakMode: .truncatingTail, width: 150, maxLines: 2)
        let lineAlone = TextLayout(text: "Title\nThe quick", font: .system(size: 16), lineBreakMode: .truncatingTail, width: 150)
        #expect(cut.lineCount == 2)
        #expect(cut.size.height == lineAlone.size.height)
        // The second line runs to the width with its ellipsis, wider than its first words alone would.
        #expect(cut.size.width > lineAlone.size.width && cut.size.width <= 150)
        let one = TextLayout(text: "first\nsecond", font: .system(size: 16), lineBreakMode: .truncatingTail, width: 150, maxLines: 1)
        let first = TextLayout(text: "first", font: .system(size: 16), lineBreakMode: .truncatingTail, width: 150)
        #expect(one.lineCount == 1 && one.size.width > first.size.width)
    }

    /// `maxHeight` shows the lines that fit (at least one), and with `.truncatingTail` the last of them
    /// ends in "…": a label's bounds.
    @Test(arguments: [LineBreakMode.wordWrap, .truncatingTail])
    func maxHeightShowsTheLinesThatFit(mode: LineBreakMode) {
        let all = TextLayout(text: Self.longText, font: .system(size: 16), lineBreakMode: mode, width: 150)
        let line = all.size.height / Double(all.lineCount)
        let two = TextLayout(text: Self.longText, font: .system(size: 16), lineBreakMode: mode, width: 150, maxHeight: 2.5 * line)
        #expect(all.lineCount > 2 && two.lineCount == 2 && abs(two.size.height - 2 * line) < 1)
        let bitmap = Self.render(two, width: 160)
        #expect(Double(bitmap.inkBounds!.maxY) < two.size.height + 1)
        let tiny = TextLayout(text: Self.longText, font: .system(size: 16), lineBreakMode: mode, width: 150, maxHeight: 3)
        #expect(tiny.lineCount == 1)
    }

    @Test func clippingCutsAtTheWidth() {
        let layout = TextLayout(
            text: "Supercalifragilisticexpialidocious", font: .system(size: 20),
            lineBreakMode: .clipping, width: 60)
        #expect(layout.lineCount == 1)
        #expect(layout.size.width == 60)
        let bitmap = Self.render(layout, width: 200)
        #expect(bitmap.inkBounds!.maxX < 60)
        let wrapped = TextLayout(text: "Supercalifragilisticexpialidocious", font: .system(size: 20), width: 60)
        #expect(wrapped.lineCount > 1)  // .wordWrap breaks the long word between characters instead
    }

    // MARK: Direction and alignment

    static let boxWidth = 300

    static func inkColumns(_ text: String, alignment: TextAlignment) -> (minX: Int, maxX: Int) {
        let layout = TextLayout(text: text, font: .system(size: 20), alignment: alignment, width: Double(boxWidth))
        let ink = render(layout, width: boxWidth + 20).inkBounds!
        return (ink.minX, ink.maxX)
    }

    @Test func rightToLeftParagraphWithNaturalAlignmentEndsAtTheRightEdge() {
        let arabic = Self.inkColumns("مرحبا بالعالم", alignment: .natural)
        #expect(arabic.maxX >= Self.boxWidth - 4 && arabic.maxX < Self.boxWidth)
        #expect(arabic.minX > 100)
        let latin = Self.inkColumns("Hello world", alignment: .natural)
        #expect(latin.minX <= 3)
        #expect(latin.maxX < 200)
    }

    @Test func explicitAlignmentIsPhysical() {
        let arabicLeft = Self.inkColumns("مرحبا بالعالم", alignment: .left)
        #expect(arabicLeft.minX <= 3)
        let latinRight = Self.inkColumns("Hello world", alignment: .right)
        #expect(latinRight.maxX >= Self.boxWidth - 4 && latinRight.maxX < Self.boxWidth)
        let arabicRight = Self.inkColumns("مرحبا بالعالم", alignment: .right)
        #expect(arabicRight.maxX >= Self.boxWidth - 4)
        let centered = Self.inkColumns("Hello world", alignment: .center)
        #expect(abs((centered.minX + centered.maxX) / 2 - Self.boxWidth / 2) <= 3)
    }

    /// The Arabic letters come out right to left: pango resolves the paragraph as RTL and places the first
    /// letter (meem, م) at the right end of the line, the last (alef, ا) at the left.
    @Test func arabicIsLaidOutRightToLeft() {
        let layout = TextLayout(text: "مرحبا", font: .system(size: 40), alignment: .left)
        #expect(pango_layout_get_direction(layout.layout, 0) == PANGO_DIRECTION_RTL)
        var first = PangoRectangle(), last = PangoRectangle()
        pango_layout_index_to_pos(layout.layout, 0, &first)  // each letter is 2 UTF-8 bytes
        pango_layout_index_to_pos(layout.layout, 8, &last)
        #expect(first.x > last.x)
        #expect(Double(first.x) / Double(PANGO_SCALE) > layout.size.width / 2)
        let latin = TextLayout(text: "Hello", font: .system(size: 40))
        pango_layout_index_to_pos(latin.layout, 0, &first)
        pango_layout_index_to_pos(latin.layout, 4, &last)
        #expect(first.x < last.x)
    }

    @Test func layoutsWorkOnOtherThreads() async {
        let sizes = await withTaskGroup(of: Double.self) { group in
            for _ in 0..<4 {
                group.addTask { TextLayout(text: "你好 Hello مرحبا", font: .system(size: 18)).size.width }
            }
            return await group.reduce(into: [Double]()) { $0.append($1) }
        }
        #expect(Set(sizes).count == 1)
        #expect(sizes[0] > 0)
    }
}

/// The system font's generic family resolved to the installed family it names (`PangoThreadContext.family`).
@Suite struct SystemFamilyTests {
    /// The family found is fontconfig's own first choice for `Sans` (`FcFontMatch`, as fc-match answers).
    @Test func theSystemFamilyIsFontconfigsFirstChoiceForSans() {
        let resolved = PangoThreadContext.family(Font.systemFamily)
        #expect(resolved != Font.systemFamily)
        #expect(resolved == FontconfigFiles.firstFamily(matching: Font.systemFamily))
        // Once per thread: asked again, the same.
        #expect(PangoThreadContext.family(Font.systemFamily) == resolved)
    }

    @Test(arguments: ["Serif", "Monospace", "sans-serif", "DejaVu Sans Mono", "No Such Family"])
    func otherFamiliesAreUsedAsNamed(family: String) {
        #expect(PangoThreadContext.family(family) == family)
    }

    /// Text in the system font draws pixel for pixel as through the generic name left to fontconfig
    /// (`sans-serif` is the same alias, and is not resolved): the same face, and the same fallback faces
    /// for the characters it lacks, in each weight.
    @Test(arguments: TextLayoutTests.samples.map(\.text) + ["Hello 你好 مرحبا 123"], [Font.Weight.regular, .medium, .bold])
    func theSystemFontDrawsAsTheGenericName(text: String, weight: Font.Weight) {
        let resolved = TextLayout(text: text, font: .system(size: 24, weight: weight))
        let generic = TextLayout(text: text, font: Font(family: "sans-serif", size: 24, weight: weight))
        #expect(resolved.size == generic.size)
        #expect(resolved.unknownGlyphCount == 0)
        #expect(TextLayoutTests.render(resolved).allPixels == TextLayoutTests.render(generic).allPixels)
    }
}

/// Text's start-up work on a thread of its own, handed to the thread that draws.
@Suite struct FontPreparationTests {
    @Test func theCallingThreadGetsThePreparedFontMap() throws {
        let preparation = FontPreparation()
        try preparation.finish()
        #expect(OpaquePointer(pango_cairo_font_map_get_default()) == preparation.handedOver)
        let layout = TextLayout(text: "Ready", font: .system(size: 17))
        #expect(layout.size.width > 0)
        #expect(layout.unknownGlyphCount == 0)
        // Finished once: again is nothing.
        try preparation.finish()
    }

    @Test func anUnfinishedPreparationIsWaitedFor() {
        _ = FontPreparation()
        _ = FontPreparation(released: false)
    }

    /// Held, a preparation loads nothing until released; waiting for one never released releases it
    /// (no caller can hang on it).
    @Test func aHeldPreparationWaitsForItsRelease() throws {
        let held = FontPreparation(released: false)
        usleep(100_000)
        #expect(!held.isLoaded)
        held.release()
        held.release()  // only the first counts
        try held.waitUntilLoaded()
        #expect(held.isLoaded)
        try held.finish()
        try FontPreparation(released: false).waitUntilLoaded()
        try FontPreparation(released: false).finish()
    }

    /// `finishOnFirstText`: the thread goes on once the libraries are loaded; its first text takes the
    /// prepared font map (on a thread of its own, which has no pango context yet).
    @Test func theFirstTextTakesThePreparedFontMap() throws {
        final class Outcome: @unchecked Sendable {
            var fontMapIsThePreparedOne = false
            var laidOut = false
            var handedOverBeforeText = true
        }
        let outcome = Outcome()
        let preparation = FontPreparation()
        let thread = Worker { () -> Void in
            do { try preparation.waitUntilLoaded() } catch { return }
            preparation.finishOnFirstText()
            outcome.handedOverBeforeText = preparation.handedOver != nil
            let layout = TextLayout(text: "Ready", font: .system(size: 17))
            outcome.laidOut = layout.size.width > 0 && layout.unknownGlyphCount == 0
            outcome.fontMapIsThePreparedOne = OpaquePointer(pango_cairo_font_map_get_default()) == preparation.handedOver
        }
        _ = thread.take()
        #expect(!outcome.handedOverBeforeText)
        #expect(outcome.laidOut)
        #expect(outcome.fontMapIsThePreparedOne)
    }

    /// Text's start loads the system's font configuration as `FcInit` does, without the template folder
    /// (conf.avail) `FcInit` also parses only to list it (fontconfig then knows those files as disabled).
    /// In a process of its own: the configuration is process-wide.
    @Test func fontconfigLoadsTheSystemConfigurationWithoutTheTemplates() async {
        await #expect(processExitsWith: .success) {
            var error = [CChar](repeating: 0, count: 256)
            guard kiosk_lazy_fontconfig_init(&error, error.count) == 0 else { exit(1) }
            let files = FontconfigFiles.ofTheCurrentConfiguration()
            exit(files.used > 0 && files.onlyListed == 0 ? 0 : 2)
        }
    }

    /// What the test above would see after `FcInit`: here the templates are parsed (so that test can fail).
    @Test func fcInitAlsoParsesTheTemplates() async {
        await #expect(processExitsWith: .success) {
            let fcInit = unsafeBitCast(FontconfigFiles.function("FcInit"), to: (@convention(c) () -> Int32).self)
            guard fcInit() != 0 else { exit(1) }
            let files = FontconfigFiles.ofTheCurrentConfiguration()
            exit(files.used > 0 && files.onlyListed > 0 ? 0 : 2)
        }
    }

    /// A configuration file that cannot be read leaves text to fontconfig's own fallback configuration:
    /// text still lays out.
    @Test func anUnreadableConfigurationFallsBackToFontconfigsOwn() async {
        await #expect(processExitsWith: .success) {
            setenv("FONTCONFIG_FILE", "/nonexistent/kiosk-fonts.conf", 1)
            let preparation = FontPreparation()
            do { try preparation.finish() } catch { exit(1) }
            let layout = TextLayout(text: "Ready", font: .system(size: 17))
            exit(layout.size.width > 0 && layout.unknownGlyphCount == 0 ? 0 : 2)
        }
    }
}

/// The configuration files fontconfig's current configuration knows (`FcConfigFileInfoIter`, as
/// fc-conflist lists them): those it uses, and those only parsed for the list.
private struct FontconfigFiles {
    var used = 0
    var onlyListed = 0

    static func function(_ name: String) -> UnsafeMutableRawPointer {
        let library = dlopen("libfontconfig.so.1", RTLD_NOW)!
        return dlsym(library, name)!
    }

    /// The first family of the font fontconfig matches for `family` (`FcNameParse`, `FcConfigSubstitute`,
    /// `FcDefaultSubstitute`, `FcFontMatch`: what `fc-match -f '%{family[0]}'` prints).
    static func firstFamily(matching family: String) -> String? {
        typealias Parse = @convention(c) (UnsafePointer<CChar>) -> OpaquePointer?
        typealias Substitute = @convention(c) (OpaquePointer?, OpaquePointer?, Int32) -> Int32
        typealias DefaultSubstitute = @convention(c) (OpaquePointer?) -> Void
        typealias Match = @convention(c) (OpaquePointer?, OpaquePointer?, UnsafeMutablePointer<Int32>) -> OpaquePointer?
        typealias GetString =
            @convention(c) (OpaquePointer?, UnsafePointer<CChar>, Int32, UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>) -> Int32
        typealias Destroy = @convention(c) (OpaquePointer?) -> Void
        let parse = unsafeBitCast(function("FcNameParse"), to: Parse.self)
        let substitute = unsafeBitCast(function("FcConfigSubstitute"), to: Substitute.self)
        let defaults = unsafeBitCast(function("FcDefaultSubstitute"), to: DefaultSubstitute.self)
        let match = unsafeBitCast(function("FcFontMatch"), to: Match.self)
        let getString = unsafeBitCast(function("FcPatternGetString"), to: GetString.self)
        let destroy = unsafeBitCast(function("FcPatternDestroy"), to: Destroy.self)
        guard let pattern = parse(family) else { return nil }
        defer { destroy(pattern) }
        _ = substitute(nil, pattern, 0)  // FcMatchPattern
        defaults(pattern)
        var result: Int32 = 0
        guard let font = match(nil, pattern, &result) else { return nil }
        defer { destroy(font) }
        var name: UnsafeMutablePointer<UInt8>?
        guard getString(font, "family", 0, &name) == 0, let name else { return nil }
        return String(cString: name)
    }

    static func ofTheCurrentConfiguration() -> FontconfigFiles {
        typealias Iterate = @convention(c) (OpaquePointer?, UnsafeMutableRawPointer) -> Int32
        typealias Get =
            @convention(c) (
                OpaquePointer?, UnsafeMutableRawPointer, UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>,
                UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, UnsafeMutablePointer<Int32>
            ) -> Int32
        let start = unsafeBitCast(function("FcConfigFileInfoIterInit"), to: Iterate.self)
        let next = unsafeBitCast(function("FcConfigFileInfoIterNext"), to: Iterate.self)
        let get = unsafeBitCast(function("FcConfigFileInfoIterGet"), to: Get.self)
        // FcConfigFileInfoIter: three pointers.
        let iterator = UnsafeMutableRawPointer.allocate(byteCount: 3 * MemoryLayout<UnsafeRawPointer>.size, alignment: 8)
        defer { iterator.deallocate() }
        var files = FontconfigFiles()
        _ = start(nil, iterator)
        repeat {
            var name: UnsafeMutablePointer<UInt8>?
            var description: UnsafeMutablePointer<UInt8>?
            var enabled: Int32 = 0
            if get(nil, iterator, &name, &description, &enabled) != 0 {
                if enabled != 0 { files.used += 1 } else { files.onlyListed += 1 }
                free(name)
                free(description)
            }
        } while next(nil, iterator) != 0
        return files
    }
}
