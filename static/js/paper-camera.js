// The paper upload page (templates/paper/upload.html): where the browser lets a page use the camera, a live view
// of it with a page-shaped frame to fit the sheet in. The photo taken goes into the form's own file field and the
// form is sent as with a chosen photo, so the server has one way in. Without the camera API the page is unchanged.
import "./main.js";

// The rear camera at its best: the reader wants about eight pixels per millimetre of the sheet.
const REAR = { video: { facingMode: "environment", width: { ideal: 3840 }, height: { ideal: 2160 } } };

function usable() {
  return window.isSecureContext && typeof navigator.mediaDevices?.getUserMedia === "function"
    && typeof DataTransfer === "function" && typeof HTMLCanvasElement.prototype.toBlob === "function";
}

function stop(video) {
  const stream = video.srcObject;
  if (stream) { stream.getTracks().forEach((track) => track.stop()); }
  video.srcObject = null;
}

// The view takes the video's own shape; a tall video (a phone held upright) stands the frame up.
function shaped(view, video) {
  view.style.setProperty("--ratio", String(video.videoWidth / video.videoHeight));
  view.classList.toggle("upright", video.videoHeight > video.videoWidth);
}

// The frame as the camera sees it, at its full size, as a JPEG file.
function taken(video, quality) {
  const canvas = document.createElement("canvas");
  canvas.width = video.videoWidth;
  canvas.height = video.videoHeight;
  canvas.getContext("2d").drawImage(video, 0, 0, canvas.width, canvas.height);
  return new Promise((done, failed) => canvas.toBlob((blob) => {
    if (blob) { done(new File([blob], "sheet.jpg", { type: "image/jpeg" })); } else { failed(new Error("no image")); }
  }, "image/jpeg", quality));
}

function setUp(form) {
  const live = form.querySelector("[data-live-camera]"), open = form.querySelector("[data-camera-open]");
  const refused = form.querySelector("[data-camera-refused]"), input = form.querySelector("input[type=file]");
  if (!live || !open || !refused || !input) { return; }
  const video = live.querySelector("video"), view = live.querySelector(".camera-view");
  const take = live.querySelector("[data-camera-take]");

  const close = () => { stop(video); live.hidden = true; open.hidden = false; };
  // The button goes for good: the sentence sends the player to the file field, which stays.
  const failed = () => {
    close();
    open.hidden = true;
    refused.hidden = false;
    input.focus();
  };

  open.addEventListener("click", async () => {
    take.disabled = true;
    open.hidden = true;
    live.hidden = false;
    try {
      video.srcObject = await navigator.mediaDevices.getUserMedia(REAR);
      if (live.hidden) { stop(video); return; }  // cancelled while the phone asked for the camera
      await video.play();
    } catch {
      failed();
      return;
    }
    if (video.videoWidth) { shaped(view, video); }
    take.disabled = false;
    live.scrollIntoView({ block: "start" });
  });
  video.addEventListener("resize", () => { if (video.videoWidth) { shaped(view, video); } });

  take.addEventListener("click", async () => {
    if (!video.videoWidth) { return; }
    take.disabled = true;
    let file;
    try {
      file = await taken(video, Number(live.dataset.quality));
    } catch {
      failed();
      return;
    }
    const files = new DataTransfer();
    files.items.add(file);
    input.files = files.files;
    close();
    if (form.requestSubmit) { form.requestSubmit(); } else { form.submit(); }
  });
  live.querySelector("[data-camera-cancel]").addEventListener("click", () => {
    close();
    open.focus();
  });
  // The camera's light goes out when the phone leaves the page, the back button included.
  window.addEventListener("pagehide", close);
  open.hidden = false;
}

document.addEventListener("DOMContentLoaded", () => {
  if (usable()) { document.querySelectorAll("form.paper-upload").forEach(setUp); }
});
