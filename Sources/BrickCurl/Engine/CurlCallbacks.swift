import BrickSystem
import CCurl
import CCurlShim

/// libcurl's C callbacks: they only find the ``CurlTransfer`` the handle serves, through its context
/// (``EasyHandle/context``), and forward. The engine's list of running transfers keeps it alive until its
/// handle has left the multi handle, which is why the frequent callbacks borrow it
/// (`_withUnsafeGuaranteedRef`) instead of retaining and releasing it around each call (a head's every line
/// and each chunk of body).
enum CurlCallbacks {
    static let write: brick_data_callback = { data, size, count, context in
        guard let transfer = EasyHandle.transfer(at: context) else { return 0 }
        return transfer._withUnsafeGuaranteedRef {
            $0.receive(UnsafeRawBufferPointer(start: data, count: size * count))
        }
    }

    static let read: brick_data_callback = { data, size, count, context in
        guard let data, let upload = EasyHandle.transfer(at: context)?.takeUnretainedValue().engine.upload
        else { return Int(CURL_READFUNC_ABORT) }
        return upload.read(into: UnsafeMutableRawBufferPointer(start: data, count: size * count))
    }

    static let seek: brick_seek_callback = { context, offset, origin in
        guard origin == SEEK_SET, let upload = EasyHandle.transfer(at: context)?.takeUnretainedValue().engine.upload
        else { return Int32(CURL_SEEKFUNC_CANTSEEK) }
        return upload.seek(to: Int64(offset)) ? Int32(CURL_SEEKFUNC_OK) : Int32(CURL_SEEKFUNC_CANTSEEK)
    }

    /// Opens the transfer's sockets close-on-exec, atomically: libcurl 7.88 opens them without it, so a
    /// process the application spawns would inherit every open connection and keep it alive after
    /// libcurl closed it (the server would never see the close).
    static let openSocket: brick_opensocket_callback = { _, _, address in
        guard let address else { return CURL_SOCKET_BAD }
        let fd = openSocketClosedOnExec(family: address.pointee.family, type: address.pointee.socktype, protocol: address.pointee.protocol)
        return fd >= 0 ? fd : CURL_SOCKET_BAD
    }

    static let progress: brick_progress_callback = { context, downloadTotal, downloaded, uploadTotal, uploaded in
        guard let transfer = EasyHandle.transfer(at: context) else { return 0 }
        transfer.takeUnretainedValue().progress(
            downloaded: Int64(downloaded), downloadTotal: Int64(downloadTotal),
            uploaded: Int64(uploaded), uploadTotal: Int64(uploadTotal))
        return 0
    }

    static let header: brick_data_callback = { data, size, count, context in
        guard let transfer = EasyHandle.transfer(at: context) else { return 0 }
        let taken = transfer._withUnsafeGuaranteedRef {
            $0.engine.receiveHeaderLine(UnsafeRawBufferPointer(start: data, count: size * count))
        }
        return taken ? size * count : 0
    }

    static let prerequest: brick_prereq_callback = { context, _, _, _, _ in
        guard let transfer = EasyHandle.transfer(at: context) else { return Int32(CURL_PREREQFUNC_ABORT) }
        let sends = transfer._withUnsafeGuaranteedRef { $0.willSendRequest() }
        return sends ? Int32(CURL_PREREQFUNC_OK) : Int32(CURL_PREREQFUNC_ABORT)
    }
}
