import BrickTransport
import CContentCoding
import FoundationEssentials

/// Decodes a response body's content codings (`Content-Encoding`: gzip, deflate, br, zstd, and chains of
/// them), step by step, so that the engine decodes only as much as its consumer has room for: what waits
/// for a slow consumer is the compressed bytes, never their expansion. Engine thread only.
///
/// A coding it does not know leaves the body as it came (with its `Content-Encoding` for the caller to see).
///
/// A server cannot make it do unbounded work in one go: each call does at most a given amount (bytes read
/// and written over every layer, ``decode(atMost:budget:)``), and every layer's output is counted
/// (``mostProducedByALayer``), so that the engine's checks of the ratio and the cap see a bomb hidden in an
/// inner layer, whose output the next layer swallows. Bytes after the end of an inner coding are damage.
final class ContentDecoder {
    /// One coding the decoder knows.
    enum Coding { case gzip, deflate, brotli, zstd }

    /// What a request asks for: every coding the decoder knows.
    static let acceptEncodingField = "Accept-Encoding: deflate, gzip, br, zstd"

    /// The most bytes one decoding step produces.
    static let step = 64 << 10

    /// The most codings decoded; a body in more is handed over as it came.
    static let maxCodings = 4

    /// The codings of a response's `Content-Encoding` fields (several fields form one list, RFC 9110 §5.3),
    /// in the order they were applied, when every one is known (`identity` skipped); `nil` when there is
    /// none, one is unknown or there are more than ``maxCodings``: the body is then handed over as it came.
    static func codings(_ values: [String]) -> [Coding]? {
        var codings: [Coding] = []
        for name in values.lazy.flatMap({ $0.split(separator: ",") }) {
            switch name.filter({ $0 != " " && $0 != "\t" }).lowercased() {
            case "gzip", "x-gzip": codings.append(.gzip)
            case "deflate": codings.append(.deflate)
            case "br": codings.append(.brotli)
            case "zstd": codings.append(.zstd)
            case "identity", "": continue
            default: return nil
            }
        }
        return codings.isEmpty || codings.count > maxCodings ? nil : codings
    }

    /// What one call to ``decode(atMost:budget:)`` made.
    enum Step {
        /// Decoded body.
        case body(Data)
        /// Nothing more until more bytes arrive.
        case needsInput
        /// The call's budget is spent with input still to decode: call again later.
        case yielded
    }

    /// The layers, the last coding applied first: layer 0 reads the bytes that arrived.
    private let layers: [any Codec]
    /// Each layer's input not decoded yet, how far it was read, and whether its last step filled its
    /// output (so that it may hold more output even with no input left).
    private var inputs: [[UInt8]]
    private var offsets: [Int]
    private var full: [Bool]
    /// What each layer produced so far.
    private var produced: [Int]

    init?(_ codings: [Coding]) {
        var layers: [any Codec] = []
        for (index, coding) in codings.reversed().enumerated() {
            // Layer 0 reads the bytes that arrived: what follows its end is ignored, as curl does. An inner
            // layer reads what another decoded, so bytes after its end were put there on purpose: damage.
            guard let codec = Self.codec(coding, strictEnd: index > 0) else { return nil }
            layers.append(codec)
        }
        self.layers = layers
        inputs = Array(repeating: [], count: layers.count)
        offsets = Array(repeating: 0, count: layers.count)
        full = Array(repeating: false, count: layers.count)
        produced = Array(repeating: 0, count: layers.count)
    }

    private static func codec(_ coding: Coding, strictEnd: Bool) -> (any Codec)? {
        switch coding {
        case .gzip: Inflater(format: .gzip, strictEnd: strictEnd)
        case .deflate: Inflater(format: .zlib, strictEnd: strictEnd)
        case .brotli: BrotliCodec(strictEnd: strictEnd)
        case .zstd: ZstdCodec()
        }
    }

    /// The most bytes one layer produced so far: the body for a single coding, and for a chain whichever
    /// layer grew most (an inner bomb whose output the next layer swallows counts here).
    var mostProducedByALayer: Int { produced.max() ?? 0 }

    /// Whether bytes that arrived may still give body: input not decoded yet, or output a layer still holds.
    var hasPendingInput: Bool { layers.indices.contains { offsets[$0] < inputs[$0].count || full[$0] } }

    /// Takes bytes that arrived; ``decode(atMost:budget:)`` turns them into body.
    func feed(_ bytes: UnsafeRawBufferPointer) {
        if offsets[0] == inputs[0].count {
            inputs[0].removeAll(keepingCapacity: true)
            offsets[0] = 0
        }
        inputs[0].append(contentsOf: bytes)
    }

    /// Up to `limit` bytes of decoded body, doing at most about `budget` bytes of work (read and written,
    /// over every layer; what is done is taken off it).
    /// - Throws: ``TransportError`` (`invalidResponse`) when the body is not valid in its coding.
    func decode(atMost limit: Int, budget: inout Int) throws(TransportError) -> Step {
        try produce(layers.count - 1, limit: max(1, limit), budget: &budget)
    }

    private func produce(_ layer: Int, limit: Int, budget: inout Int) throws(TransportError) -> Step {
        var output = Data(count: limit)
        while true {
            guard budget > 0 else { return .yielded }
            if offsets[layer] == inputs[layer].count && !full[layer] {
                guard layer > 0 else { return .needsInput }
                switch try produce(layer - 1, limit: Self.step, budget: &budget) {
                case .body(let more):
                    inputs[layer] = Array(more)
                    offsets[layer] = 0
                case let other: return other
                }
            }
            let offset = offsets[layer]
            let codec = layers[layer]
            let step: Result<(Int, Int), TransportError> = inputs[layer].withUnsafeBytes { input in
                output.withUnsafeMutableBytes { out in
                    Result { () throws(TransportError) in try codec.run(UnsafeRawBufferPointer(rebasing: input[offset...]), into: out) }
                }
            }
            let (consumed, made) = try step.get()
            offsets[layer] += consumed
            full[layer] = made == limit
            produced[layer] += made
            budget -= consumed + made + 1
            if made > 0 {
                output.count = made
                return .body(output)
            }
            if consumed == 0 { offsets[layer] = inputs[layer].count }  // a coding past its end takes nothing more
        }
    }
}
