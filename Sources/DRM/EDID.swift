import Glibc

/// The identity of a display from its EDID: manufacturer, model and serial, so a config can follow a
/// monitor whichever connector it is on.
public struct EDID: Hashable, Sendable {
    /// The three-letter PNP ID (`DEL`, `SAM`, `RHT` for QEMU).
    public let make: String
    /// The monitor name descriptor (`QEMU Monitor`), else the product code in hex.
    public let model: String
    /// The serial string descriptor, else the numeric serial, else nil.
    public let serial: String?
    public let productCode: UInt16

    /// Parses the 128-byte base block; nil when the header or checksum is wrong.
    public init?(bytes: [UInt8]) {
        guard bytes.count >= 128, bytes[0..<8] == [0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x00],
            bytes[0..<128].reduce(0, { $0 &+ $1 }) == 0
        else { return nil }
        // Manufacturer: three 5-bit letters, big endian, 1 = "A".
        let id = UInt16(bytes[8]) << 8 | UInt16(bytes[9])
        let letters = [(id >> 10) & 0x1F, (id >> 5) & 0x1F, id & 0x1F].map { Character(UnicodeScalar(UInt8($0) + 64)) }
        make = String(letters)
        productCode = UInt16(bytes[10]) | UInt16(bytes[11]) << 8
        let number = UInt32(bytes[12]) | UInt32(bytes[13]) << 8 | UInt32(bytes[14]) << 16 | UInt32(bytes[15]) << 24
        var name: String?
        var serialText: String?
        // Four 18-byte descriptors; display descriptors start 00 00 00 <tag>.
        for offset in stride(from: 54, to: 126, by: 18) where bytes[offset] == 0 && bytes[offset + 1] == 0 {
            let text = Self.descriptorText(bytes[(offset + 5)..<(offset + 18)])
            switch bytes[offset + 3] {
            case 0xFC: name = text
            case 0xFF: serialText = text
            default: break
            }
        }
        let hex = String(productCode, radix: 16, uppercase: true)
        model = name ?? "0x" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        serial = serialText ?? (number == 0 ? nil : String(number))
    }

    /// Descriptor text ends at a newline and is padded with spaces.
    private static func descriptorText(_ bytes: ArraySlice<UInt8>) -> String? {
        let line = bytes.prefix { $0 != 0x0A }
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 }
        let text = String(decoding: line.drop(while: isSpace).reversed().drop(while: isSpace).reversed(), as: UTF8.self)
        return text.isEmpty ? nil : text
    }
}
