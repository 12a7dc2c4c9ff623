/// The contents of a TZif file (RFC 8536) that time zone lookups need, parsed from bytes alone.
///
/// Versions 2 and later repeat the data with 64-bit times after the version 1 block, and end with a TZ
/// string footer; only that second block is read, the first skipped by its counts. A version 1 file has
/// only the 32-bit block and no footer. Version 4 differs from 3 only in leap-second records, which are
/// refused either way.
struct TZif: Sendable, Hashable {
    /// Transition times in seconds since the epoch, strictly increasing.
    var transitionTimes: [Int64]
    /// For each transition, the index in `types` of the local time type that starts there.
    var transitionTypes: [UInt8]
    /// Local time types; the first is in effect before the first transition (RFC 8536 section 3.2).
    var types: [ZoneOffset]
    /// The footer's rule for times after the last transition; nil in version 1 or when the footer is empty.
    var rule: PosixTZRule?

    init(transitionTimes: [Int64], transitionTypes: [UInt8], types: [ZoneOffset], rule: PosixTZRule?) {
        self.transitionTimes = transitionTimes
        self.transitionTypes = transitionTypes
        self.types = types
        self.rule = rule
    }

    /// Parses a file's bytes; `file` only names it in errors.
    init(bytes: [UInt8], file: String) throws(TimeZoneError) {
        var reader = ByteReader(bytes: bytes, file: file)
        let header = try reader.header(part: .header)
        guard header.version >= 2 else {
            try self.init(block: &reader, header: header, timeSize: 4)
            return
        }
        _ = try reader.take(header.dataBlockSize(timeSize: 4), part: .version1DataBlock)
        let header2 = try reader.header(part: .version2Header)
        try self.init(block: &reader, header: header2, timeSize: 8)

        // The footer: a newline, the TZ string (possibly empty), a newline.
        try reader.expectNewline()
        let footerStart = reader.offset
        while try reader.byte(part: .footer) != UInt8(ascii: "\n") {}
        let footerBytes = bytes[footerStart..<reader.offset - 1]
        let footer = String(decoding: footerBytes, as: UTF8.self)
        guard footerBytes.allSatisfy({ (0x20...0x7E).contains($0) }) else {
            throw .badFooter(file: file, footer: footer, reason: "it is not printable ASCII")
        }
        guard !footer.isEmpty else { return }
        do {
            rule = try PosixTZRule(parsing: footer)
        } catch {
            throw .badFooter(file: file, footer: footer, reason: error.reason)
        }
    }

    /// A data block (RFC 8536 section 3.2), with 4- or 8-byte times.
    private init(block reader: inout ByteReader, header: Header, timeSize: Int) throws(TimeZoneError) {
        let file = reader.file
        guard header.typeCount > 0 else { throw .malformed(file: file, reason: "it has no local time types") }
        guard header.characterCount > 0 else { throw .malformed(file: file, reason: "it has no time zone designations") }
        guard header.standardWallCount == 0 || header.standardWallCount == header.typeCount,
            header.universalLocalCount == 0 || header.universalLocalCount == header.typeCount
        else { throw .malformed(file: file, reason: "its indicator counts differ from its type count") }

        let times = try reader.take(header.transitionCount * timeSize, part: .transitionTimes)
        transitionTimes = stride(from: times.startIndex, to: times.endIndex, by: timeSize).map { start in
            timeSize == 8
                ? Int64(bitPattern: bigEndian(times[start..<start + 8]))
                : Int64(Int32(bitPattern: UInt32(bigEndian(times[start..<start + 4]))))
        }
        guard zip(transitionTimes, transitionTimes.dropFirst()).allSatisfy({ $0 < $1 }) else {
            throw .malformed(file: file, reason: "its transition times are not in increasing order")
        }
        transitionTypes = Array(try reader.take(header.transitionCount, part: .transitionTypes))
        guard transitionTypes.allSatisfy({ Int($0) < header.typeCount }) else {
            throw .malformed(file: file, reason: "a transition has a type index beyond its \(header.typeCount) types")
        }

        let records = try reader.take(header.typeCount * 6, part: .localTimeTypes)
        let designations = try reader.take(header.characterCount, part: .designations)
        types = []
        for start in stride(from: records.startIndex, to: records.endIndex, by: 6) {
            let offset = Int32(bitPattern: UInt32(bigEndian(records[start..<start + 4])))
            let isDaylight = records[start + 4]
            let index = Int(records[start + 5])
            guard offset != Int32.min, isDaylight <= 1 else {
                throw .malformed(file: file, reason: "local time type \(types.count) has an invalid offset or DST flag")
            }
            guard index < designations.count,
                let end = designations[(designations.startIndex + index)...].firstIndex(of: 0)
            else { throw .malformed(file: file, reason: "local time type \(types.count) has no NUL-terminated designation") }
            let abbreviation = String(decoding: designations[(designations.startIndex + index)..<end], as: UTF8.self)
            types.append(ZoneOffset(secondsFromUTC: Int(offset), isDaylightSavingTime: isDaylight == 1, abbreviation: abbreviation))
        }

        _ = try reader.take(header.leapCount * (timeSize + 4), part: .leapSecondRecords)
        _ = try reader.take(header.standardWallCount, part: .standardWallIndicators)
        _ = try reader.take(header.universalLocalCount, part: .universalLocalIndicators)
        // Checked after the block is read whole, so that a truncated file is reported as truncated.
        guard header.leapCount == 0 else { throw .leapSecondsUnsupported(file: file) }
        rule = nil
    }
}

/// A TZif header's counts (RFC 8536 section 3.1).
private struct Header {
    var version: Int
    var universalLocalCount: Int
    var standardWallCount: Int
    var leapCount: Int
    var transitionCount: Int
    var typeCount: Int
    var characterCount: Int

    /// The data block's length in bytes, to skip the version 1 block.
    func dataBlockSize(timeSize: Int) -> Int {
        transitionCount * timeSize + transitionCount + typeCount * 6 + characterCount + leapCount * (timeSize + 4)
            + standardWallCount + universalLocalCount
    }
}

/// A cursor over the file's bytes that reports which part it ran out in.
private struct ByteReader {
    let bytes: [UInt8]
    let file: String
    var offset = 0

    init(bytes: [UInt8], file: String) {
        self.bytes = bytes
        self.file = file
    }

    mutating func take(_ count: Int, part: TZifPart) throws(TimeZoneError) -> ArraySlice<UInt8> {
        guard count <= bytes.count - offset else { throw .truncated(file: file, part: part) }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    mutating func byte(part: TZifPart) throws(TimeZoneError) -> UInt8 {
        try take(1, part: part).first!
    }

    mutating func expectNewline() throws(TimeZoneError) {
        guard try byte(part: .footer) == UInt8(ascii: "\n") else {
            throw .malformed(file: file, reason: "the footer does not start with a newline")
        }
    }

    /// The 44-byte header: magic, version, 15 reserved bytes, six 32-bit counts.
    mutating func header(part: TZifPart) throws(TimeZoneError) -> Header {
        let available = bytes[offset...].prefix(4)
        guard available.elementsEqual("TZif".utf8.prefix(available.count)) else {
            if part == .header { throw .notTZif(file: file) }
            throw .malformed(file: file, reason: "the version 2+ header does not start with \"TZif\"")
        }
        // An empty file, or a few bytes of the magic, is a truncated header rather than some other file.
        let fields = try take(44, part: part)
        let versionByte = fields[fields.startIndex + 4]
        let version: Int
        switch versionByte {
        case 0: version = 1
        case UInt8(ascii: "2")...UInt8(ascii: "4"): version = Int(versionByte - UInt8(ascii: "0"))
        default: throw .unsupportedVersion(file: file, version: versionByte)
        }
        // Each count is checked against the file's length before anything is multiplied by it, so that a
        // corrupt count is a truncated file rather than an overflow (on a 32-bit target).
        let countedParts: [TZifPart] = [
            .universalLocalIndicators, .standardWallIndicators, .leapSecondRecords, .transitionTimes, .localTimeTypes,
            .designations,
        ]
        var counts: [Int] = []
        for (index, countedPart) in countedParts.enumerated() {
            let start = fields.startIndex + 20 + index * 4
            let count = bigEndian(fields[start..<start + 4])
            guard count <= UInt64(bytes.count) else {
                throw .truncated(file: file, part: part == .header && version >= 2 ? .version1DataBlock : countedPart)
            }
            counts.append(Int(count))
        }
        return Header(
            version: version, universalLocalCount: counts[0], standardWallCount: counts[1], leapCount: counts[2],
            transitionCount: counts[3], typeCount: counts[4], characterCount: counts[5])
    }
}

/// An unsigned big-endian number of up to eight bytes.
private func bigEndian(_ bytes: ArraySlice<UInt8>) -> UInt64 {
    bytes.reduce(0) { $0 << 8 | UInt64($1) }
}
