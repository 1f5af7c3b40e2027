# czk — the service layer (src/server/), the daemon czkd (apps/czkd/) and the
# gRPC client side of the czk tool. Needs gRPC core, protobuf-c,
# libmicrohttpd and SQLite (Debian packages, see scripts/install-deps).
pkg_check_modules(GRPC REQUIRED IMPORTED_TARGET grpc)
pkg_check_modules(GPR REQUIRED IMPORTED_TARGET gpr)
pkg_check_modules(PROTOBUF_C REQUIRED IMPORTED_TARGET libprotobuf-c)
pkg_check_modules(MHD REQUIRED IMPORTED_TARGET libmicrohttpd)
pkg_check_modules(SQLITE3 REQUIRED IMPORTED_TARGET sqlite3)
find_program(PROTOC_C protoc-c REQUIRED)

# C message code from our .proto, generated into the build tree.
set(CZK_PROTO ${PROJECT_SOURCE_DIR}/proto/cuzk/v1/proving.proto)
set(CZK_PROTO_OUT ${PROJECT_BINARY_DIR}/proto)
set(CZK_PROTO_C ${CZK_PROTO_OUT}/cuzk/v1/proving.pb-c.c)
set(CZK_PROTO_H ${CZK_PROTO_OUT}/cuzk/v1/proving.pb-c.h)
if(EXISTS ${CZK_PROTO})
  add_custom_command(
    OUTPUT ${CZK_PROTO_C} ${CZK_PROTO_H}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CZK_PROTO_OUT}
    COMMAND ${PROTOC_C} --proto_path=${PROJECT_SOURCE_DIR}/proto --c_out=${CZK_PROTO_OUT} ${CZK_PROTO}
    DEPENDS ${CZK_PROTO}
    COMMENT "protoc-c ${CZK_PROTO}")
  set(CZK_PROTO_SOURCES ${CZK_PROTO_C})
else()
  set(CZK_PROTO_SOURCES "")
endif()

file(GLOB CZK_SERVER_SOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/server/*.c)
add_library(czk_server STATIC ${CZK_SERVER_SOURCES} ${CZK_PROTO_SOURCES})
target_include_directories(czk_server PUBLIC ${PROJECT_SOURCE_DIR}/include ${CZK_PROTO_OUT})
target_link_libraries(czk_server PUBLIC czk PkgConfig::GRPC PkgConfig::GPR PkgConfig::PROTOBUF_C PkgConfig::MHD
                      PkgConfig::SQLITE3)

file(GLOB CZKD_SOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/apps/czkd/*.c)
if(CZKD_SOURCES)
  add_executable(czkd ${CZKD_SOURCES})
  target_link_libraries(czkd PRIVATE czk_server)
endif()

# ---- tests of the service: they start czkd (and use the czk tool) from this build ------
# the gRPC service against an independent Python client (SKIP without czkd,
# python3-grpcio or grpc_python_plugin); durability across kill -9; and the
# HTTP status page, when its check exists
add_test(NAME grpc_check COMMAND sh ${PROJECT_SOURCE_DIR}/tests/server/grpc_check.sh ${PROJECT_BINARY_DIR})
add_test(NAME kill9_check COMMAND sh ${PROJECT_SOURCE_DIR}/tests/server/kill9_check.sh ${PROJECT_BINARY_DIR})
# who may reach and call gRPC: TLS and mutual TLS with a CA made by the openssl
# CLI, the token, the loopback rule, the unix socket's mode (SKIP without czkd
# or openssl; its Python part runs where python3-grpcio is)
add_test(NAME tls_check COMMAND sh ${PROJECT_SOURCE_DIR}/tests/server/tls_check.sh ${PROJECT_BINARY_DIR})
# request bytes in the budget: czkd's peak memory under 16 large SubmitProof
# calls at once stays within its budget (SKIP without czkd or python3-grpcio;
# not in the sanitizer passes: their shadow memory is not czkd's)
add_test(NAME request_memory_check COMMAND sh ${PROJECT_SOURCE_DIR}/tests/server/request_memory_check.sh
                                           ${PROJECT_BINARY_DIR})
# (timeouts: CMakeLists.txt sizes every test's, these too)
set_tests_properties(grpc_check kill9_check tls_check request_memory_check PROPERTIES SKIP_RETURN_CODE 77)
# durability in order: czkd under an LD_PRELOAD library that logs the writes,
# fsyncs and renames under its state folder (tests/server/fsync_shim.c); the
# check fails when a job is acknowledged before its spool file, the spool
# folder and its WAL row are synced. The shim is built without sanitizers (it
# only forwards calls), so that it can be preloaded into sanitized programs.
if(TARGET czkd)
  add_library(czk_fsync_shim SHARED ${PROJECT_SOURCE_DIR}/tests/server/fsync_shim.c)
  target_link_libraries(czk_fsync_shim PRIVATE ${CMAKE_DL_LIBS})
  target_compile_options(czk_fsync_shim PRIVATE -fno-sanitize=all)
  target_link_options(czk_fsync_shim PRIVATE -fno-sanitize=all)
  add_test(NAME durability_check COMMAND sh ${PROJECT_SOURCE_DIR}/tests/server/durability_check.sh
                                         $<TARGET_FILE:czkd> $<TARGET_FILE:czk_cli> $<TARGET_FILE:czk_fsync_shim>)
  set_tests_properties(durability_check PROPERTIES SKIP_RETURN_CODE 77)
endif()
# listening at once after a restart: czkd under an LD_PRELOAD library that
# holds every open of a .params file until the test opens a gate
# (tests/server/slow_open_shim.c); GetStatus answers and says "restoring",
# a SubmitProof waits for the re-queued jobs, then everything is proved.
# Built without sanitizers, as the fsync shim.
if(TARGET czkd)
  add_library(czk_slow_open_shim SHARED ${PROJECT_SOURCE_DIR}/tests/server/slow_open_shim.c)
  target_link_libraries(czk_slow_open_shim PRIVATE ${CMAKE_DL_LIBS})
  target_compile_options(czk_slow_open_shim PRIVATE -fno-sanitize=all)
  target_link_options(czk_slow_open_shim PRIVATE -fno-sanitize=all)
  add_test(NAME restart_check COMMAND sh ${PROJECT_SOURCE_DIR}/tests/server/restart_check.sh
                                      $<TARGET_FILE:czkd> $<TARGET_FILE:czk_cli> $<TARGET_FILE:czk_slow_open_shim>)
  set_tests_properties(restart_check PROPERTIES SKIP_RETURN_CODE 77)
endif()
# PoRep C2 end to end: czk testseal, czk setup under Filecoin's names, czkd,
# Curio's Prove call (tests/server/curio_prove.py), czk verify --c1, and the
# tampered requests refused (not in the sanitizer pass: the setup alone takes
# minutes there)
# minutes there). It leaves porep-2k's parameters in the build folder for
# kinds_check: WinningPoSt, WindowPoSt and SnapDeals the same way, and a
# WinningPoSt ahead of PoRep load (fixture params_2k: it runs after).
if(TARGET czkd)
  set(CZK_PARAMS_2K ${PROJECT_BINARY_DIR}/test-params-2k)
  add_test(NAME porep_check COMMAND ${CMAKE_COMMAND} -E env CZK_PARAMS_SAVE=${CZK_PARAMS_2K}
                                    sh ${PROJECT_SOURCE_DIR}/tests/server/porep_check.sh ${PROJECT_BINARY_DIR})
  set_tests_properties(porep_check PROPERTIES SKIP_RETURN_CODE 77 FIXTURES_SETUP params_2k)
  add_test(NAME kinds_check COMMAND ${CMAKE_COMMAND} -E env CZK_PARAMS_2K=${CZK_PARAMS_2K}
                                    sh ${PROJECT_SOURCE_DIR}/tests/server/kinds_check.sh ${PROJECT_BINARY_DIR})
  set_tests_properties(kinds_check PROPERTIES SKIP_RETURN_CODE 77 FIXTURES_REQUIRED params_2k)
endif()
if(TARGET czkd AND EXISTS ${PROJECT_SOURCE_DIR}/tests/server/html_check.sh)
  add_test(NAME html_check COMMAND sh ${PROJECT_SOURCE_DIR}/tests/server/html_check.sh $<TARGET_FILE:czkd>
                                   $<TARGET_FILE:czk_cli>)
  set_tests_properties(html_check PROPERTIES SKIP_RETURN_CODE 77)
endif()
