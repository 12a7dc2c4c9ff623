import CLazyPangoCairo

extension TextLayout {
    /// Gives `layout` the runs' attributes (`pango_attr_list_new`, `pango_attr_font_desc_new`,
    /// `pango_attr_foreground_new` and `_alpha_new`, `pango_attr_background_new` and `_alpha_new`,
    /// `pango_attr_underline_new`, `pango_attr_strikethrough_new`, `pango_attr_letter_spacing_new`,
    /// `pango_attr_rise_new`, `pango_attr_list_insert`, `pango_layout_set_attributes`) and the paragraph
    /// style's spacing and the difference of its indents (`pango_layout_set_spacing`,
    /// `pango_layout_set_indent`; the smaller indent is where the layout is drawn, `leadingIndent`).
    static func apply(_ text: AttributedText, to layout: OpaquePointer) {
        let list = pango_attr_list_new()!
        defer { pango_attr_list_unref(list) }
        func insert(_ attribute: UnsafeMutablePointer<PangoAttribute>?, _ range: Range<Int>) {
            guard let attribute else { return }
            attribute.pointee.start_index = UInt32(range.lowerBound)
            attribute.pointee.end_index = UInt32(range.upperBound)
            pango_attr_list_insert(list, attribute)  // takes it
        }
        func shorts(_ value: Double) -> UInt16 { UInt16((min(max(value, 0), 1) * 65535).rounded()) }
        for run in text.runs {
            let range = run.utf8Range, attributes = run.attributes
            if let font = attributes.font {
                let description = font.makePangoDescription()
                insert(pango_attr_font_desc_new(description), range)
                pango_font_description_free(description)
            }
            if let color = attributes.foregroundColor {
                insert(pango_attr_foreground_new(shorts(color.red), shorts(color.green), shorts(color.blue)), range)
                if color.alpha < 1 { insert(pango_attr_foreground_alpha_new(shorts(color.alpha)), range) }
            }
            if let color = attributes.backgroundColor {
                insert(pango_attr_background_new(shorts(color.red), shorts(color.green), shorts(color.blue)), range)
                if color.alpha < 1 { insert(pango_attr_background_alpha_new(shorts(color.alpha)), range) }
            }
            switch attributes.underlineStyle {
            case .none: break
            case .single: insert(pango_attr_underline_new(PANGO_UNDERLINE_SINGLE), range)
            case .double: insert(pango_attr_underline_new(PANGO_UNDERLINE_DOUBLE), range)
            }
            if attributes.strikethrough { insert(pango_attr_strikethrough_new(1), range) }
            if attributes.kern != 0 { insert(pango_attr_letter_spacing_new(pangoUnits(attributes.kern)), range) }
            if attributes.baselineOffset != 0 { insert(pango_attr_rise_new(pangoUnits(attributes.baselineOffset)), range) }
        }
        pango_layout_set_attributes(layout, list)  // takes its own reference
        if let style = text.paragraphStyle {
            if style.lineSpacing != 0 { pango_layout_set_spacing(layout, pangoUnits(style.lineSpacing)) }
            let indent = style.firstLineHeadIndent - style.headIndent
            if indent != 0 { pango_layout_set_indent(layout, pangoUnits(indent)) }
        }
    }
}
