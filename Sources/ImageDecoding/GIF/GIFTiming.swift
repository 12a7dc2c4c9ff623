import CLazyGIF

/// How long each frame shows and how often an animation plays, read from what `DGifSlurp` saved, and
/// read as browsers read them (files are made to look right in a browser, not to the letter of GIF89a).
enum GIFTiming {
    /// A frame's duration in seconds from its Graphics Control Block's delay, in centiseconds: 0 or 1
    /// (10 ms or less) shows for 100 ms, as for WebP (`FrameDuration`).
    static func duration(centiseconds: Int) -> Double {
        FrameDuration.seconds(milliseconds: centiseconds * 10)
    }

    /// How many times the animation plays (`DecodedImage.loopCount`): 0 for forever.
    ///
    /// The count is in the NETSCAPE2.0 application extension (or its twin, ANIMEXTS1.0): a sub-block of
    /// 3 bytes, 1 then a 16-bit little-endian count, 0 meaning forever. Browsers read a count N as N
    /// repetitions after the first play, so N + 1 plays in all; a GIF without the extension plays once
    /// (1). giflib keeps the extension, unread, among the blocks before the image it precedes (usually
    /// the first) or after the last image; browsers take it wherever it is, so the first one found in
    /// file order counts.
    static func loopCount(of gif: UnsafePointer<GifFileType>) -> Int {
        let file = gif.pointee
        for index in 0..<Int(file.ImageCount) {
            let image = file.SavedImages[index]
            if let count = netscapeCount(image.ExtensionBlocks, count: Int(image.ExtensionBlockCount)) {
                return count == 0 ? 0 : count + 1
            }
        }
        if let count = netscapeCount(file.ExtensionBlocks, count: Int(file.ExtensionBlockCount)) {
            return count == 0 ? 0 : count + 1
        }
        return 1
    }

    /// The count of the first NETSCAPE2.0 extension among `blocks`. giflib saves an extension as its
    /// first sub-block (`Function` the extension's label, 0xFF for an application extension, whose
    /// first sub-block is its 11-byte identifier) and each later sub-block as a block of its own with
    /// `Function` CONTINUE_EXT_FUNC_CODE.
    private static func netscapeCount(_ blocks: UnsafeMutablePointer<ExtensionBlock>?, count: Int) -> Int? {
        guard let blocks else { return nil }
        let identifiers = [Array("NETSCAPE2.0".utf8), Array("ANIMEXTS1.0".utf8)]
        var index = 0
        while index < count {
            let block = blocks[index]
            index += 1
            guard block.Function == APPLICATION_EXT_FUNC_CODE, block.ByteCount == 11, let bytes = block.Bytes,
                identifiers.contains(Array(UnsafeBufferPointer(start: bytes, count: 11)))
            else { continue }
            while index < count, blocks[index].Function == CONTINUE_EXT_FUNC_CODE {
                let sub = blocks[index]
                index += 1
                if sub.ByteCount >= 3, let data = sub.Bytes, data[0] & 7 == 1 {
                    return Int(data[1]) | Int(data[2]) << 8
                }
            }
        }
        return nil
    }
}
