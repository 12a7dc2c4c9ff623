import CLazyPangoCairo

/// Where lines sit horizontally inside the layout width (as `NSTextAlignment`).
public enum TextAlignment: Hashable, Sendable {
    case left, center, right
    /// Left for left-to-right paragraphs, right for right-to-left ones (Arabic, Hebrew).
    case natural
}

/// What happens to text that does not fit the width (as `NSLineBreakMode`).
public enum LineBreakMode: Hashable, Sendable {
    /// Break between words; a word longer than the width breaks between characters
    /// (`PANGO_WRAP_WORD_CHAR`).
    case wordWrap
    /// Break between any two characters (`PANGO_WRAP_CHAR`).
    case charWrap
    /// Wrap as `.wordWrap`; when `maxLines` or `maxHeight` cuts the text short, the last line shown ends in
    /// "…" (`PANGO_ELLIPSIZE_END`), whichever paragraph it is in.
    case truncatingTail
    /// Break between words only (`PANGO_WRAP_WORD`); a word longer than the width is cut at the edge.
    case clipping
}

/// A paragraph (or several, split by newlines) shaped and broken into lines by pango, ready to draw.
///
/// Any script lays out: pango itemizes the text, shapes it with HarfBuzz, applies the bidirectional
/// algorithm (each paragraph's direction comes from its first strong character) and falls back per
/// character to any installed font that covers it. `unknownGlyphCount` tells whether it found one for
/// every character.
///
/// Sizes are in pixels. Metrics are hinted to whole pixels (`CAIRO_HINT_METRICS_ON`) with slight outline
/// hinting and greyscale antialiasing, set on the context rather than taken from fontconfig or the desktop,
/// so a layout measures and draws the same wherever the fonts are the same. (Greyscale, because subpixel
/// RGB order would be wrong on a rotated panel.)
///
/// Not `Sendable`: the layout belongs to the thread that made it (pango's default font map is per thread).
public final class TextLayout {
    public let text: String
    public let font: Font
    public let color: Color
    public let alignment: TextAlignment
    public let lineBreakMode: LineBreakMode
    /// The wrapping width in pixels; nil: lines break only at newlines.
    public let width: Double?
    /// The most lines shown; 0: no limit.
    public let maxLines: Int
    /// The most height the lines shown may take (a label's bounds); nil: no limit. At least one line shows.
    public let maxHeight: Double?

    /// The logical extents of the shown lines in pixels: the widest line's advance width and the height from
    /// the first line's top to the last shown line's bottom (line spacing included, ink overhang not).
    public let size: Size
    /// The number of lines shown (after `maxLines`).
    public let lineCount: Int
    /// Distance in pixels from the top of the layout to the first line's baseline.
    public let baseline: Double
    /// Characters no installed font could draw (each shown as a hex box): 0 means the text really renders.
    /// Reads `pango_layout_get_unknown_glyphs_count`.
    public let unknownGlyphCount: Int

    /// `PangoLayout *`
    let layout: OpaquePointer
    /// How far right of the drawing point the lines start (an attributed text's head indent).
    let leadingIndent: Double
    /// Where drawing is cut, in layout coordinates, when `maxLines` or `.clipping` hides part of the layout.
    let drawingClip: Rect?

    /// Lays `text` out. Calls `pango_layout_new` on this thread's context, `pango_layout_set_text`,
    /// `pango_layout_set_width`, `pango_layout_set_wrap`, `pango_layout_set_ellipsize`,
    /// `pango_layout_set_height`, `pango_layout_is_ellipsized`, `pango_layout_set_alignment` and
    /// `pango_layout_get_extents`.
    public init(
        text: String, font: Font, color: Color = .black, alignment: TextAlignment = .natural,
        lineBreakMode: LineBreakMode = .wordWrap, width: Double? = nil, maxLines: Int = 0, maxHeight: Double? = nil,
        attributes: AttributedText? = nil
    ) {
        precondition(maxLines >= 0, "TextLayout: maxLines \(maxLines) is negative")
        self.maxHeight = maxHeight
        self.text = text
        self.font = font
        self.color = color
        self.alignment = alignment
        self.lineBreakMode = lineBreakMode
        self.width = width
        self.maxLines = maxLines
        // The paragraph style's indents: every line is laid out narrower by the smaller and drawn that far
        // in; pango's indent adds the difference to the first line (positive) or to the others (negative:
        // its hanging indent).
        let indent = max(min(attributes?.paragraphStyle?.headIndent ?? 0, attributes?.paragraphStyle?.firstLineHeadIndent ?? 0), 0)
        leadingIndent = indent
        let width = width.map { $0 - indent }

        let layout = pango_layout_new(PangoThreadContext.current)!
        self.layout = layout
        let description = font.makePangoDescription()
        pango_layout_set_font_description(layout, description)
        pango_font_description_free(description)
        // An explicit byte length: a Swift string may contain NUL, which pango then treats as invalid
        // UTF-8 and draws as a box instead of cutting the text short.
        var text = text
        text.withUTF8 { utf8 in
            utf8.withMemoryRebound(to: CChar.self) { pango_layout_set_text(layout, $0.baseAddress, Int32(utf8.count)) }
        }
        if let attributes, attributes.string == text { Self.apply(attributes, to: layout) }

        if let width {
            pango_layout_set_width(layout, Self.pangoUnits(max(width, 0)))
            switch lineBreakMode {
            case .wordWrap:
                pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
            case .charWrap:
                pango_layout_set_wrap(layout, PANGO_WRAP_CHAR)
            case .truncatingTail:
                pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
            case .clipping:
                pango_layout_set_wrap(layout, PANGO_WRAP_WORD)
            }
        }
        Self.setAlignment(alignment, of: layout)

        // The lines shown: at most maxLines, and those that fit in maxHeight (at least one).
        var totalLines = Int(pango_layout_get_line_count(layout))
        var shown = maxLines > 0 ? min(maxLines, totalLines) : totalLines
        if let maxHeight { shown = min(shown, max(Self.linesFitting(layout, height: Self.pangoUnits(maxHeight)), 1)) }
        if lineBreakMode == .truncatingTail, width != nil, shown < totalLines {
            // pango ellipsizes the last line that fits a positive height, whichever paragraph it is in (a
            // negative height would count lines per paragraph): the shown lines' height and half the next
            // line's, as pango ends with the line after which less than two lines' height remains.
            let lines = Self.extentsOfLines(layout, count: shown + 1)
            let kept = Self.extentsOfLines(layout, count: shown)
            let next = lines.y + lines.height - (kept.y + kept.height)
            pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END)
            pango_layout_set_height(layout, kept.y + kept.height + next / 2)
            if pango_layout_is_ellipsized(layout) == 0, let line = pango_layout_get_line_readonly(layout, Int32(shown - 1)) {
                // Cut where a paragraph ends, which pango leaves without "…": the text up to the end of that
                // line and an ellipsis (itself ellipsized if they do not fit).
                let end = min(Int(line.pointee.start_index + line.pointee.length), text.utf8.count)
                let cut = Array(text.utf8.prefix(end)) + Array("\u{2026}".utf8)
                cut.withUnsafeBufferPointer { bytes in
                    bytes.withMemoryRebound(to: CChar.self) { pango_layout_set_text(layout, $0.baseAddress, Int32(bytes.count)) }
                }
            }
            totalLines = Int(pango_layout_get_line_count(layout))
        }
        // Metrics of the lines shown. pango limits lines itself only when it ellipsizes, so for the other
        // modes the limit is ours: measure the first lines and clip.
        var logical = PangoRectangle()
        var clip: Rect?
        if shown < totalLines {
            logical = Self.extentsOfLines(layout, count: shown)
            clip = Rect(
                x: -Self.unboundedClip / 2, y: 0, width: Self.unboundedClip,
                height: Double(logical.y + logical.height) / Double(PANGO_SCALE))
            lineCount = shown
        } else {
            pango_layout_get_extents(layout, nil, &logical)
            lineCount = totalLines
        }
        var size = Size(
            width: Double(logical.width) / Double(PANGO_SCALE) + indent,
            height: Double(logical.y + logical.height) / Double(PANGO_SCALE))
        if lineBreakMode == .clipping, let width {
            let limit = max(width, 0)
            size.width = min(size.width, limit)
            let vertical = clip ?? Rect(x: 0, y: -Self.unboundedClip / 2, width: 0, height: Self.unboundedClip)
            clip = Rect(x: 0, y: vertical.minY, width: limit, height: vertical.height)
        }
        self.size = size
        drawingClip = clip
        baseline = Double(pango_layout_get_baseline(layout)) / Double(PANGO_SCALE)
        unknownGlyphCount = Int(pango_layout_get_unknown_glyphs_count(layout))
    }

    deinit {
        g_object_unref(UnsafeMutableRawPointer(layout))
    }

    // MARK: Carets

    /// Where the caret stands before the character at `offset` (UTF-8 bytes into `text`; `text.utf8.count`
    /// is the end), in the layout's coordinates: a zero-width rectangle as tall as the line. For mixed
    /// directions it is pango's strong caret (the one for text of the paragraph's direction). Calls
    /// `pango_layout_get_cursor_pos`.
    public func caretRect(atUTF8Offset offset: Int) -> Rect {
        var strong = PangoRectangle()
        pango_layout_get_cursor_pos(layout, Int32(clamping: min(max(offset, 0), text.utf8.count)), &strong, nil)
        let scale = Double(PANGO_SCALE)
        return Rect(x: Double(strong.x) / scale, y: Double(strong.y) / scale, width: 0, height: Double(strong.height) / scale)
    }

    /// The caret position (UTF-8 offset, always between grapheme clusters) nearest `point` in the layout's
    /// coordinates: a tap on the right half of a character puts the caret after it. Calls
    /// `pango_layout_xy_to_index`.
    public func utf8Offset(nearest point: Point) -> Int {
        var index: Int32 = 0, trailing: Int32 = 0
        _ = pango_layout_xy_to_index(layout, Self.pangoUnits(point.x), Self.pangoUnits(point.y), &index, &trailing)
        // `trailing` counts the characters (code points) of the grapheme the point is in when it is on the
        // grapheme's trailing half: step over them.
        let utf8 = Array(text.utf8)
        var offset = min(max(Int(index), 0), utf8.count)
        var remaining = Int(trailing)
        while remaining > 0, offset < utf8.count {
            offset += 1
            while offset < utf8.count, utf8[offset] & 0xC0 == 0x80 { offset += 1 }
            remaining -= 1
        }
        return offset
    }

    /// A clip this wide never cuts anything a kiosk shows; finite so cairo's fixed-point math stays exact.
    private static let unboundedClip: Double = 4_194_304  // 2^22, inside cairo's 24.8 fixed-point range

    static func pangoUnits(_ pixels: Double) -> Int32 {
        Int32(clamping: Int64((pixels * Double(PANGO_SCALE)).rounded()))
    }

    /// `.natural` is pango's own behaviour with `auto_dir` (its default): `PANGO_ALIGN_LEFT` means "start",
    /// mirrored for a paragraph whose direction differs from the context's left-to-right base. Physical
    /// `.left`/`.right` undo that mirror when the first paragraph is right-to-left (pango aligns the whole
    /// layout with one setting, so mixed-direction paragraphs follow the first).
    /// Calls `pango_layout_line_get_resolved_direction` and `pango_layout_set_alignment`.
    private static func setAlignment(_ alignment: TextAlignment, of layout: OpaquePointer) {
        let pangoAlignment: PangoAlignment
        switch alignment {
        case .natural: pangoAlignment = PANGO_ALIGN_LEFT
        case .center: pangoAlignment = PANGO_ALIGN_CENTER
        case .left, .right:
            // pango aligns to the paragraph's direction: the physical side needs the first line's. Set for
            // left-to-right before the lines are made, since changing a layout's alignment throws its lines
            // away (they are made again, shaping included, on the next query): only right-to-left text
            // pays for a second set of lines.
            let leftToRight = alignment == .left ? PANGO_ALIGN_LEFT : PANGO_ALIGN_RIGHT
            pango_layout_set_alignment(layout, leftToRight)
            guard firstLineIsRightToLeft(layout) else { return }
            pangoAlignment = leftToRight == PANGO_ALIGN_LEFT ? PANGO_ALIGN_RIGHT : PANGO_ALIGN_LEFT
        }
        pango_layout_set_alignment(layout, pangoAlignment)
    }

    /// Whether the first paragraph reads right to left (Arabic, Hebrew): a text field aligns such text to
    /// the right by default. Calls `pango_layout_line_get_resolved_direction`.
    public var isRightToLeft: Bool { Self.firstLineIsRightToLeft(layout) }

    private static func firstLineIsRightToLeft(_ layout: OpaquePointer) -> Bool {
        guard let line = pango_layout_get_line_readonly(layout, 0) else { return false }
        let direction = pango_layout_line_get_resolved_direction(line)
        return direction == PANGO_DIRECTION_RTL || direction == PANGO_DIRECTION_WEAK_RTL
    }

    /// How many of the first lines end within `height` (pango units).
    private static func linesFitting(_ layout: OpaquePointer, height: Int32) -> Int {
        let iterator = pango_layout_get_iter(layout)!
        defer { pango_layout_iter_free(iterator) }
        var count = 0
        repeat {
            var line = PangoRectangle()
            pango_layout_iter_get_line_extents(iterator, nil, &line)
            guard line.y + line.height <= height else { break }
            count += 1
        } while pango_layout_iter_next_line(iterator) != 0
        return count
    }

    /// The union of the logical extents of the first `count` lines (pango units, layout coordinates).
    /// Walks them with `pango_layout_iter_get_line_extents`.
    private static func extentsOfLines(_ layout: OpaquePointer, count: Int) -> PangoRectangle {
        let iterator = pango_layout_get_iter(layout)!
        defer { pango_layout_iter_free(iterator) }
        var minX = Int32.max, maxX = Int32.min, minY = Int32.max, maxY = Int32.min
        for index in 0..<count {
            var line = PangoRectangle()
            pango_layout_iter_get_line_extents(iterator, nil, &line)
            minX = min(minX, line.x)
            maxX = max(maxX, line.x + line.width)
            minY = min(minY, line.y)
            maxY = max(maxY, line.y + line.height)
            if index < count - 1 && pango_layout_iter_next_line(iterator) == 0 { break }
        }
        return PangoRectangle(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }
}
