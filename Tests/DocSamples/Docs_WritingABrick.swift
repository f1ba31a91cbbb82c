// Generated from Docs/WritingABrick.md by .ci/doc-samples.py: edit the page, not this file.

import BrickRequest
import Foundation

/// Sends the request to the EU region of our API.
/// Sets: `baseURL` = "https://eu.api.example.com/v2".
fileprivate protocol EURegionType: RequestType {}

fileprivate extension EURegionType {
    public var baseURL: String? { "https://eu.api.example.com/v2" }
}
fileprivate struct Invoice: Decodable, Sendable { let id: Int }
fileprivate struct BillingTokens: TokenProvider {
    func initialToken() async throws -> String { "t" }
    func refreshToken(rejected: String) async throws -> String { "t" }
}
fileprivate extension Session { static let billing = Session() }
fileprivate extension BearerAuthenticator { static let billing = BearerAuthenticator(provider: BillingTokens()) }
fileprivate protocol BillingAPI: CustomSessionRequestType, SoftAutoRetryType, BearerAuthType {}
fileprivate extension BillingAPI {
    static var customSession: Session { .billing }
    var bearerAuthenticator: BearerAuthenticator { .billing }
}
fileprivate final class GetInvoice: Component, GETRequestType, BillingAPI, DecodableResponseType {
    typealias SerializedObject = Invoice
    var path: String { "/invoices/1" }
}
fileprivate struct SigningKey: Sendable { func sign(_ text: String) -> String { String(text.count) } }
fileprivate struct SignRequests: Interceptor {
    let key: SigningKey
    var priority: InterceptorPriority { .high }
    func adapt(_ request: inout TransportRequest, context: RequestContext) async throws {
        request.headers["X-Signature"] = key.sign(request.method.rawValue + " " + request.url)
    }
}

fileprivate enum SamplesOfWritingABrick {
}
